// The ai-human-review example as a user runs it in n8n 2.41: a chat message, a review by SMS, YES or NO.
import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import { CHAT_MODEL_PHONE, DEFAULT_CONFIG } from '../simulator';
import { type E2eEnvironment, useE2eEnvironment } from './support/environment';
import {
	createSimulatorOpenAi,
	loadExample,
	publishQuestionLog,
	withOpenAi,
} from './support/examples';
import { nodeOutput, type WorkflowJson } from './support/n8n-client';
import { pollUntil } from './support/poll';
import { waitingAt } from './support/question-log';
import { asWebhook } from './support/workflow-builder';

/** A numeric longcode of the account: the reviewer's answer can come back to it. */
const LONGCODE = '353870000123';
/** The reviewer's number in the example. */
const REVIEWER = '353871234567';
const TRIGGER = 'When chat message received';

describe('the ai-human-review example in n8n: the AI Agent texts only what a person approved by SMS', () => {
	const suite = useE2eEnvironment({
		simulator: { senders: [...DEFAULT_CONFIG.senders, { name: LONGCODE, type: 0 }] },
	});
	let workflowId: string;
	let relayUrl: string;
	let example: WorkflowJson;

	beforeAll(async () => {
		const env = suite.env();
		// The inbox as the Question Log, and a copy of it on the account's relay URL.
		const questionLog = await publishQuestionLog(env);
		relayUrl = await env.publish(
			await env.importWorkflow(loadExample('inbox', { questionLog })),
			'On Reply or Opt-Out',
		);
		// The user's own OpenAI credential, here the simulator's OpenAI-compatible model.
		const openAi = await createSimulatorOpenAi(env.client, env.sim.url);
		example = withOpenAi(loadExample('ai-human-review', { sender: LONGCODE, questionLog }), openAi);
		workflowId = (await env.importWorkflow(example)).id;
	}, 60_000);

	/**
	 * A message typed into the editor's chat ("Open chat"), as n8n 2.41's editor sends it: it asks
	 * n8n to listen for the chat session, then posts the message to that test webhook. Returns the
	 * run once it waits for the review.
	 */
	async function chat(env: E2eEnvironment, chatInput: string): Promise<string> {
		const before = new Set((await env.client.executions(workflowId)).map((e) => String(e.id)));
		const sessionId = randomUUID();
		expect(
			await env.client.call('POST', `/rest/workflows/${workflowId}/run`, {
				triggerToStartFrom: { name: TRIGGER },
				chatSessionId: sessionId,
			}),
		).toEqual({ waitingForWebhook: true });
		// n8n answers the chat's request once the run stops to wait for the review.
		await fetch(`${env.n8n.url}/webhook-test/${workflowId}/${sessionId}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput }),
		});
		const executionId = await pollUntil(
			async () =>
				(await env.client.executions(workflowId))
					.map((e) => String(e.id))
					.find((id) => !before.has(id)),
			'the run of the chat message',
			30_000,
		);
		await waitingAt(env, executionId);
		return executionId;
	}

	/** The one review text so far, and its answer code. */
	function review(env: E2eEnvironment, executionId: string) {
		expect(env.sim.campaigns).toHaveLength(1);
		const [{ body }] = env.sim.campaigns;
		expect(body.from).toBe(LONGCODE);
		expect(body.recipientInfo).toEqual([
			{ msisdn: REVIEWER, notifyId: expect.stringMatching(new RegExp(`^${executionId}\\.0\\.`)) },
		]);
		const text = body.text as string;
		const code = /\nReply YES (\d{4}) or NO \1$/.exec(text)?.[1];
		expect(code).toMatch(/^\d{4}$/);
		return { text, code: code! };
	}

	/** The reviewer's signed answer through the inbox; the run it resumed, finished. */
	async function answered(env: E2eEnvironment, executionId: string, content: string) {
		const relay = await env.sim.sendInbound({ url: relayUrl, from: REVIEWER, content });
		expect(relay.status).toBe(200);
		const done = await env.client.waitForExecution(executionId, 60_000);
		expect(done.status).toBe('success');
		return done;
	}

	suite.it(
		"texts the reviewer the tool call with a code; YES with the code sends the agent's text, and the agent says what Send answered",
		async (env) => {
			env.sim.reset();
			const executionId = await chat(env, `Text ${CHAT_MODEL_PHONE} that their order is ready`);
			const { text, code } = review(env, executionId);
			// The tool and the number and text the agent chose, as JSON.
			expect(text).toMatch(/^The AI agent wants to run Send_SMS with:\n\{.*\}\nReply YES/);
			expect(text).toContain(`"phone":"${CHAT_MODEL_PHONE}"`);
			expect(text).toContain('"message":"sample"');

			const done = await answered(env, executionId, `YES ${code}`);
			// Send ran once: the agent's text reached the number it chose, from the example's sender.
			expect(env.sim.campaigns).toHaveLength(2);
			expect(env.sim.campaigns[1].body).toMatchObject({
				from: LONGCODE,
				text: 'sample',
				recipientInfo: [{ msisdn: CHAT_MODEL_PHONE }],
			});
			// The agent's answer, what the chat shows, is what Send reported.
			const [answer] = nodeOutput(done, 'AI Agent');
			expect(String(answer?.output)).toMatch(
				new RegExp(`^The tool said: .*"status":"accepted","msisdn":"${CHAT_MODEL_PHONE}"`),
			);
		},
		120_000,
	);

	suite.it(
		'NO with the code: nothing reaches the customer, and the agent says the text was rejected',
		async (env) => {
			env.sim.reset();
			const executionId = await chat(env, `Text ${CHAT_MODEL_PHONE} that their order is ready`);
			const { code } = review(env, executionId);

			const done = await answered(env, executionId, `NO ${code}`);
			expect(done.data.resultData.runData['Send SMS']).toBeUndefined();
			expect(env.sim.campaigns).toHaveLength(1);
			const [answer] = nodeOutput(done, 'AI Agent');
			expect(String(answer?.output)).toMatch(/rejected the tool call to Send SMS/);
		},
		120_000,
	);

	suite.it(
		'30 reviews asked at once of one reviewer: each carries a code of its own, and each answer decides its own review only',
		async (env) => {
			env.sim.reset();
			// The example started by a Webhook in place of the chat, 30 times at once.
			const path = `reviews-${randomUUID()}`;
			const workflow = await env.importWorkflow({
				...example,
				name: `${example.name} (30 at once) ${path}`,
				nodes: example.nodes.map((node) => {
					if (node.name === TRIGGER) return asWebhook(node, path);
					if (node.name !== 'AI Agent') return node;
					const text = '={{ $json.body.chatInput }}';
					const parameters = node.parameters as Record<string, unknown>;
					return { ...node, parameters: { ...parameters, promptType: 'define', text } };
				}),
			});
			const url = `${env.n8n.url}/webhook/${path}`;
			await env.client.publishWorkflow(workflow.id);
			await env.client.waitForWebhook(url);
			const chatInput = `Text ${CHAT_MODEL_PHONE} that their order is ready`;
			await Promise.all(
				Array.from({ length: 30 }, async () => {
					const response = await fetch(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ chatInput }),
					});
					await response.arrayBuffer();
					expect(response.status).toBe(200);
				}),
			);
			await pollUntil(
				async () => env.sim.campaigns.length === 30 || undefined,
				'30 review texts',
				120_000,
			);
			// Each review: the run it pauses (its Notify ID names it) and its code.
			const reviews = env.sim.campaigns.map(({ body }) => ({
				executionId: String((body.recipientInfo as Array<{ notifyId: string }>)[0].notifyId).split(
					'.',
				)[0],
				code: /\nReply YES (\d{4}) or NO \1$/.exec(body.text as string)?.[1],
			}));
			expect(new Set(reviews.map((r) => r.executionId)).size).toBe(30);
			expect(new Set(reviews.map((r) => r.code)).size).toBe(30);
			for (const { executionId } of reviews) await waitingAt(env, executionId);
			// Answered in random order, every other one approved. The provider links each answer to the
			// last review texted; the code, not the link, names the review it answers.
			const decisions = new Map(reviews.map((r, i) => [r.executionId, i % 2 === 0]));
			for (const { executionId, code } of [...reviews].sort(() => Math.random() - 0.5)) {
				const word = decisions.get(executionId) ? 'YES' : 'NO';
				const relay = await env.sim.sendInbound({
					url: relayUrl,
					from: REVIEWER,
					content: `${word} ${code}`,
				});
				expect(relay.status).toBe(200);
				expect((await env.client.waitForExecution(executionId, 60_000)).status).toBe('success');
			}
			for (const [executionId, approved] of decisions) {
				const done = await env.client.execution(executionId);
				expect({
					executionId,
					sent: done.data.resultData.runData['Send SMS'] !== undefined,
				}).toEqual({
					executionId,
					sent: approved,
				});
			}
			// The 30 reviews, then one text for each of the 15 approved.
			expect(env.sim.campaigns).toHaveLength(45);
		},
		300_000,
	);
});
