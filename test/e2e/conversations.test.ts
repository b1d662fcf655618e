import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

import { fetch } from 'undici';

import { replyProof } from '../../nodes/Phonovation/resources/conversation/proof/replyProof';
import { useE2eEnvironment } from './support/environment';
import { createSimulatorOpenAi } from './support/examples';
import { logParameter, questionLog, questionLogWorkflow, waitingAt } from './support/question-log';
import { nodeOutput } from './support/n8n-client';
import { chain, manualTrigger, phonovation, phonovationTrigger } from './support/workflow-builder';

/** A numeric longcode of the account: replies can come back to it. */
const LONGCODE = '353870000123';
const ASKED = '353871234567';
const REPLIES_WEBHOOK_ID = randomUUID();
const webhookUrl = (n8nUrl: string) => `${n8nUrl}/webhook/${REPLIES_WEBHOOK_ID}/phonovation`;
type Json = Record<string, any>;

/** The asking workflow: one node asks (it records itself in the Question Log). */
function askingWorkflow(logId: string, ask: Json = {}, after: Json[] = []) {
	const node = phonovation('Ask', {
		resource: 'conversation',
		operation: 'sendAndWait',
		questionLog: logParameter(logId),
		from: LONGCODE,
		recipients: '0871234567',
		message: 'Reply YES to confirm your appointment tomorrow at 10:00, NO to cancel',
		responseType: 'approval',
		...ask,
	});
	return chain(`Question ${randomUUID().slice(0, 8)}`, [manualTrigger(), node, ...after] as never);
}

describe('Send and Wait for Reply in n8n', () => {
	const suite = useE2eEnvironment({
		simulator: () => ({
			senders: [
				{ name: 'Phonovation', type: 0 },
				{ name: LONGCODE, type: 0 },
			],
		}),
	});
	const questions = questionLog();
	afterAll(() => questions.server.close());
	let logId = '';
	/** The Question Log workflow, imported and published once. */
	async function logWorkflow(env: ReturnType<typeof suite.env>): Promise<string> {
		if (!logId) {
			logId = (await env.importWorkflow(questionLogWorkflow(questions.url()))).id;
			await env.client.publishWorkflow(logId);
		}
		return logId;
	}

	/** The inbox's part for questions: the trigger's verified replies → Deliver Reply, published. */
	async function deliveringReplies(
		env: ReturnType<typeof suite.env>,
		log: string,
		webhookId: ReturnType<typeof randomUUID>,
	): Promise<{ id: string }> {
		const replies = await env.importWorkflow(
			chain(`Replies ${webhookId.slice(0, 8)}`, [
				phonovationTrigger('On Reply', { events: ['inbound', 'optOut'] }, webhookId),
				phonovation('Deliver', {
					resource: 'conversation',
					operation: 'deliverReply',
					questionLog: logParameter(log),
				}),
			]),
		);
		await env.publish(replies, 'On Reply');
		return replies;
	}

	suite.it(
		'asks once, keeps waiting for a forged or foreign answer, and resumes on the verified reply from the number asked',
		async (env) => {
			env.sim.reset();
			const log = await logWorkflow(env);
			const asking = await env.importWorkflow(askingWorkflow(log));
			const executionId = await env.client.runManually(asking.id, 'Manual Trigger');
			const recorded = await questions.next();
			const resumeUrl = recorded.resumeUrl as string;
			await waitingAt(env, executionId);

			// One question, from the longcode, its Notify ID naming this execution.
			expect(env.sim.campaigns).toHaveLength(1);
			const [question] = env.sim.campaigns;
			expect(question.body.from).toBe(LONGCODE);
			expect(question.body.recipientInfo).toEqual([
				{
					msisdn: ASKED,
					notifyId: expect.stringMatching(new RegExp(`^${executionId}\\.0\\.[A-Za-z0-9_-]{12}$`)),
				},
			]);
			const notifyId = question.body.recipientInfo[0].notifyId as string;
			// Recorded before it was texted, with the asking node's own signed resume URL.
			expect(recorded).toMatchObject({ reference: notifyId, phone: ASKED });
			expect(resumeUrl).toMatch(
				new RegExp(`/webhook-waiting/${executionId}/[^/?]+\\?signature=[0-9a-f]{64}$`),
			);

			// The run's own URL (n8n's execution token) does not reach the question.
			const runUrl = resumeUrl.replace(/\/[^/?]+\?/, '?');
			expect((await fetch(runUrl, { method: 'POST' })).status).toBe(401);

			// n8n's token in the URL is not enough: without our proof the run keeps waiting.
			const forged = await fetch(resumeUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					from: ASKED,
					text: 'YES',
					receivedAt: null,
					optedOut: false,
					notifyId,
					proof: '0'.repeat(64),
				}),
			});
			expect(forged.status).toBe(401);
			expect((await env.client.execution(executionId)).status).toBe('waiting');

			// A proven YES without the time it was received could be a captured answer sent again.
			const timeless = { from: ASKED, text: 'YES', receivedAt: null, optedOut: false, notifyId };
			const proof = replyProof(
				{ executionId, reference: notifyId },
				timeless,
				env.sim.config.relaySecret,
			);
			const stripped = await fetch(resumeUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ ...timeless, proof }),
			});
			expect(stripped.status).toBe(409);
			expect(await stripped.json()).toEqual({
				resumed: false,
				reason: 'the reply has no time it was received (SMS-TimeStamp)',
			});
			expect((await env.client.execution(executionId)).status).toBe('waiting');

			// A proven YES stamped more than 10 s before the question was asked answers something else
			// (a captured answer to an earlier question, say).
			const early = {
				...timeless,
				receivedAt: new Date(Date.parse(String(recorded.askedAt)) - 11_000).toISOString(),
			};
			const beforeAsked = await fetch(resumeUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					...early,
					proof: replyProof(
						{ executionId, reference: notifyId },
						early,
						env.sim.config.relaySecret,
					),
				}),
			});
			expect(beforeAsked.status).toBe(409);
			expect(await beforeAsked.json()).toEqual({
				resumed: false,
				reason: 'the reply was sent before the question was asked',
			});
			expect((await env.client.execution(executionId)).status).toBe('waiting');

			// The reply workflow hands verified replies to the run (its lookup of the resume URL is the example's Data
			// Table).
			const replies = await deliveringReplies(env, log, REPLIES_WEBHOOK_ID);

			// A YES from another number resumes nothing.
			expect(
				(
					await env.sim.sendInbound({
						url: webhookUrl(env.n8n.url),
						from: '353879999999',
						content: 'YES',
						notifyId,
					})
				).status,
			).toBe(200);
			const [foreign] = await env.client.waitForExecutions(replies.id, 1);
			expect(nodeOutput(foreign, 'Deliver')).toEqual([
				expect.objectContaining({
					resumed: false,
					reason: 'no question to this number is waiting',
				}),
			]);
			expect((await env.client.execution(executionId)).status).toBe('waiting');

			// The answer from the number asked resumes the run.
			expect(
				(
					await env.sim.sendInbound({
						url: webhookUrl(env.n8n.url),
						from: ASKED,
						content: 'Yes!',
						notifyId,
					})
				).status,
			).toBe(200);
			const resumed = await env.client.waitForExecution(executionId, 60_000);
			expect(resumed.status).toBe('success');
			expect(nodeOutput(resumed, 'Ask')).toEqual([
				expect.objectContaining({
					approved: true,
					text: 'Yes!',
					from: ASKED,
					optedOut: false,
					timedOut: false,
					waitedSeconds: expect.any(Number),
				}),
			]);
			const delivered = await env.client.waitForExecutions(replies.id, 2);
			expect(nodeOutput(delivered[1], 'Deliver')).toEqual([
				expect.objectContaining({
					resumed: true,
					answer: 'yes',
					question: { reference: notifyId, executionId },
				}),
			]);

			// A second reply after the resume is an ordinary inbound message: nothing to resume.
			await env.sim.sendInbound({
				url: webhookUrl(env.n8n.url),
				from: ASKED,
				content: 'NO',
				notifyId,
			});
			const after = await env.client.waitForExecutions(replies.id, 3);
			expect(nodeOutput(after[2], 'Deliver')).toEqual([
				expect.objectContaining({
					resumed: false,
					reason: 'no question to this number is waiting any more',
				}),
			]);
			expect(env.sim.campaigns).toHaveLength(1);
		},
		180_000,
	);

	/** Asks, and returns the waiting run with its resume URL and the reply workflow that delivers to it. */
	async function asked(env: ReturnType<typeof suite.env>, ask: Json = {}, after: Json[] = []) {
		const log = await logWorkflow(env);
		const asking = await env.importWorkflow(askingWorkflow(log, ask, after));
		const executionId = await env.client.runManually(asking.id, 'Manual Trigger');
		await questions.next();
		await waitingAt(env, executionId);
		const webhookId = randomUUID();
		const replies = await deliveringReplies(env, log, webhookId);
		const reply = async (content: string, count: number, notifyId?: string) => {
			expect(
				(
					await env.sim.sendInbound({
						url: `${env.n8n.url}/webhook/${webhookId}/phonovation`,
						from: ASKED,
						content,
						...(notifyId ? { notifyId } : {}),
					})
				).status,
			).toBe(200);
			const runs = await env.client.waitForExecutions(replies.id, count);
			return nodeOutput(runs[count - 1], 'Deliver') as Json[];
		};
		return { executionId, reply };
	}

	suite.it(
		'a reply that is no answer leaves the run waiting; the answer after it resumes, linked by the provider to the question',
		async (env) => {
			env.sim.reset();
			const { executionId, reply } = await asked(env);
			expect(await reply('What time was it again?', 1)).toEqual([
				expect.objectContaining({ resumed: false, reason: 'not an answer: still waiting' }),
			]);
			expect((await env.client.execution(executionId)).status).toBe('waiting');
			expect(await reply('níl', 2)).toEqual([expect.objectContaining({ resumed: true })]);
			const resumed = await env.client.waitForExecution(executionId, 60_000);
			expect(nodeOutput(resumed, 'Ask')).toEqual([
				expect.objectContaining({ approved: false, text: 'níl', optedOut: false }),
			]);
		},
		120_000,
	);

	suite.it(
		'STOP in answer resumes the run with optedOut: true, and reaches the trigger as an opt-out',
		async (env) => {
			env.sim.reset();
			const { executionId, reply } = await asked(env);
			expect(await reply('STOP', 1)).toEqual([expect.objectContaining({ resumed: true })]);
			const resumed = await env.client.waitForExecution(executionId, 60_000);
			expect(nodeOutput(resumed, 'Ask')).toEqual([
				expect.objectContaining({ optedOut: true, approved: false, text: 'STOP' }),
			]);
		},
		120_000,
	);

	suite.it(
		'Free Text resumes on whatever the number asked texts back',
		async (env) => {
			env.sim.reset();
			const { executionId, reply } = await asked(env, {
				responseType: 'freeText',
				message: 'Which day suits you?',
			});
			await reply('Thursday after 2', 1);
			const resumed = await env.client.waitForExecution(executionId, 60_000);
			const [out] = nodeOutput(resumed, 'Ask') as Json[];
			expect(out).toMatchObject({ text: 'Thursday after 2', from: ASKED, timedOut: false });
			expect(out).not.toHaveProperty('approved');
		},
		120_000,
	);

	suite.it(
		'after Limit Wait Time with no answer, the run goes on with timedOut: true',
		async (env) => {
			env.sim.reset();
			const { executionId } = await asked(env, { options: { limitWaitTime: 1 } });
			// n8n looks for runs whose wait is over once a minute.
			const finished = await env.client.waitForExecution(executionId, 150_000);
			expect(finished.status).toBe('success');
			expect(nodeOutput(finished, 'Ask')).toEqual([
				expect.objectContaining({ timedOut: true, approved: null, answer: 'timedOut', to: ASKED }),
			]);
			expect(env.sim.campaigns).toHaveLength(1);
		},
		200_000,
	);

	suite.it(
		'a later "Thanks!" linked to the question never resumes a Wait node further on in the run',
		async (env) => {
			env.sim.reset();
			const wait = {
				id: randomUUID(),
				name: 'Wait for Payment',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				position: [440, 0],
				webhookId: randomUUID(),
				parameters: { resume: 'webhook', options: {} },
			};
			const { executionId, reply } = await asked(env, {}, [wait]);
			const [question] = env.sim.campaigns;
			const notifyId = question.body.recipientInfo[0].notifyId as string;
			expect(await reply('Yes please', 1, notifyId)).toEqual([
				expect.objectContaining({ resumed: true, answer: 'yes' }),
			]);
			// The run goes on to the Wait node, which waits for the payment.
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			await waitingAt(env, executionId);
			expect(await reply('Thanks!', 2, notifyId)).toEqual([
				expect.objectContaining({ resumed: false }),
			]);
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			const run = await env.client.execution(executionId);
			expect(run.status).toBe('waiting');
		},
		120_000,
	);

	suite.it(
		'a reminder sent after the question does not lose the YES: the reply linked to it finds the question by number',
		async (env) => {
			env.sim.reset();
			const { executionId, reply } = await asked(env);
			expect(await reply('YES', 1, 'reminder-2030-06-01')).toEqual([
				expect.objectContaining({ resumed: true, answer: 'yes' }),
			]);
			const resumed = await env.client.waitForExecution(executionId, 60_000);
			expect(nodeOutput(resumed, 'Ask')).toEqual([
				expect.objectContaining({ approved: true, answer: 'yes' }),
			]);
		},
		120_000,
	);

	describe("n8n's AI Agent, with our Send and Wait as the human review of its tool", () => {
		let openAi: { id: string; name: string };

		/** Manual Trigger → AI Agent (OpenAI chat model on the simulator); List Senders gated by our review. */
		async function agentWorkflow(env: ReturnType<typeof suite.env>, review: Json = {}) {
			openAi ??= await createSimulatorOpenAi(env.client, env.sim.url);
			const node = (name: string, type: string, typeVersion: number, parameters: Json) => ({
				id: randomUUID(),
				name,
				type,
				typeVersion,
				position: [0, 0] as [number, number],
				parameters,
			});
			const log = await logWorkflow(env);
			const nodes = [
				manualTrigger(),
				node('Agent', '@n8n/n8n-nodes-langchain.agent', 3, {
					promptType: 'define',
					text: 'List our sender IDs',
					options: {},
				}),
				{
					...node('Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.2, {
						model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' },
						options: {},
					}),
					credentials: { openAiApi: openAi },
				},
				{
					...node('Human Review', 'n8n-nodes-phonovation.phonovationHitlTool', 1, {
						resource: 'conversation',
						operation: 'sendAndWait',
						questionLog: logParameter(log),
						from: LONGCODE,
						recipients: '0871234567',
						responseType: 'approval',
						message:
							'=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ JSON.stringify($tool.parameters) }}',
						...review,
					}),
					webhookId: randomUUID(),
				},
				node('List Senders', 'n8n-nodes-phonovation.phonovationTool', 1, {
					resource: 'sender',
					operation: 'getAll',
					returnAll: false,
					limit: "={{ $fromAI('howMany', 'How many sender IDs to list', 'number') }}",
				}),
			];
			const workflow = await env.importWorkflow({
				name: `Agent ${randomUUID().slice(0, 8)}`,
				nodes,
				connections: {
					'Manual Trigger': { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
					Model: { ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]] },
					'Human Review': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
					'List Senders': { ai_tool: [[{ node: 'Human Review', type: 'ai_tool', index: 0 }]] },
				},
				settings: { executionOrder: 'v1' },
			} as never);
			const webhookId = randomUUID();
			await deliveringReplies(env, log, webhookId);
			const executionId = await env.client.runManually(workflow.id, 'Manual Trigger');
			await questions.next();
			await waitingAt(env, executionId);
			const [question] = env.sim.campaigns;
			const text = question.body.text as string;
			const code = /Reply YES (\d{4}) or NO \1$/.exec(text)?.[1];
			const reply = async (content: string) =>
				await env.sim.sendInbound({
					url: `${env.n8n.url}/webhook/${webhookId}/phonovation`,
					from: ASKED,
					content,
				});
			return { executionId, text, code, reply, webhookId };
		}

		const senderLists = (env: ReturnType<typeof suite.env>) =>
			env.sim.count('GET', '/api/v2/senderlist');

		suite.it(
			'texts the tool call with its code; a YES without the code keeps it waiting, YES with it runs the tool',
			async (env) => {
				env.sim.reset();
				const { executionId, text, code, reply, webhookId } = await agentWorkflow(env);
				// n8n's message, the input as JSON (as is, n8n writes an object as "[object Object]").
				expect(text).toMatch(/^The agent wants to run this tool: List_Senders\n\nInput:\n\S/);
				expect(text).toContain('"howMany":2'); // what the model passed the tool
				expect(code).toMatch(/^\d{4}$/);
				const before = senderLists(env);
				await reply('YES');
				await new Promise((resolve) => setTimeout(resolve, 2_000));
				expect((await env.client.execution(executionId)).status).toBe('waiting');
				// A STOP without the code (a captured one, say) settles nothing either.
				const stop = await env.sim.sendOptOut({
					url: `${env.n8n.url}/webhook/${webhookId}/phonovation`,
					from: ASKED,
				});
				expect(stop.status).toBe(200);
				await new Promise((resolve) => setTimeout(resolve, 2_000));
				expect((await env.client.execution(executionId)).status).toBe('waiting');
				await reply(`YES ${code}`);
				const done = await env.client.waitForExecution(executionId, 60_000);
				expect(done.status).toBe('success');
				expect(senderLists(env) - before).toBe(1);
				expect(JSON.stringify(nodeOutput(done, 'Agent'))).toContain('The tool said');
				expect(env.sim.campaigns).toHaveLength(1);
			},
			120_000,
		);

		suite.it(
			'NO with the code: the tool does not run, and the agent is told it was rejected',
			async (env) => {
				env.sim.reset();
				const { executionId, code, reply } = await agentWorkflow(env);
				const before = senderLists(env);
				await reply(`No ${code}`);
				const done = await env.client.waitForExecution(executionId, 60_000);
				expect(done.status).toBe('success');
				expect(senderLists(env)).toBe(before);
				expect(JSON.stringify(nodeOutput(done, 'Agent'))).toMatch(/rejected/);
			},
			120_000,
		);

		suite.it(
			'no answer within Limit Wait Time: the tool does not run',
			async (env) => {
				env.sim.reset();
				const { executionId } = await agentWorkflow(env, { options: { limitWaitTime: 1 } });
				const before = senderLists(env);
				const done = await env.client.waitForExecution(executionId, 150_000);
				expect(done.status).toBe('success');
				expect(senderLists(env)).toBe(before);
			},
			200_000,
		);
	});

	suite.it('n8n offers the operation to its AI Agent as a human-review tool', async (env) => {
		expect(await env.client.nodeTypeNames()).toContain('n8n-nodes-phonovation.phonovationHitlTool');
	});
});
