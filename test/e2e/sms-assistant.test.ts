// The sms-assistant example behind the inbox, in n8n 2.41 with the simulator's chat model.
import { DEFAULT_CONFIG } from '../simulator';
import { DEFAULT_DISCLOSURE } from '../../nodes/Phonovation/resources/conversation/assistant/disclosure';
import { CHAT_MODEL_TEXT, type ChatRequestMessages } from '../simulator/chatModel';
import { type E2eEnvironment, useE2eEnvironment } from './support/environment';
import {
	assistantExample,
	exampleWebhookId,
	loadExample,
	publishQuestionLog,
	STAFF_LOGIN,
} from './support/examples';
import { nodeOutput, type WorkflowJson } from './support/n8n-client';
import { type SmtpSink, smtpCredentialData, startSmtpSink, subjectOf } from './support/smtp-sink';
import { chain, code, manualTrigger, phonovation } from './support/workflow-builder';

/** The account's numeric longcode: the number people text, and the one replies go from. */
const LONGCODE = DEFAULT_CONFIG.senders.find((sender) => sender.type === 2)!.name;
/** Quicker than the example's 5 s, so a burst and the texts after it fit a test. */
const QUIET_SECONDS = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The turn's text each time the agent asked the model afresh (not the model's calls after a tool). */
const turnsAsked = (requests: ChatRequestMessages[]) =>
	requests.filter((r) => r.at(-1)?.role === 'user').map((r) => r.at(-1)!.content);

const CAMPAIGN = '/api/v2/Campaign';

describe('the sms-assistant example: one answer per burst, a memory from the log, and its guards', () => {
	const suite = useE2eEnvironment();
	let relayUrl = '';
	let assistantId = '';
	let questionLog = '';
	let mail: SmtpSink;
	/** The staff's mail (Tell Staff), as a user sets it up. */
	let smtp: { id: string; name: string };

	/** The example as imported and published, with the simulator's chat model and a shorter quiet time. */
	async function publishAssistant(
		env: E2eEnvironment,
		edit: (example: WorkflowJson) => WorkflowJson = (example) => example,
		quietSeconds = QUIET_SECONDS,
	): Promise<string> {
		const example = edit(await assistantExample(env.client, env.sim.url, questionLog, smtp));
		const assistant = await env.importWorkflow({
			...example,
			nodes: example.nodes.map((node) => {
				return node.name === 'Collect Burst'
					? { ...node, parameters: { ...(node.parameters as object), quietSeconds } }
					: node;
			}),
		});
		await env.client.publishWorkflow(assistant.id);
		return assistant.id;
	}

	/** The inbox, published, handing texts no question took to `assistantWorkflow`: its relay URL. */
	const publishInbox = async (env: E2eEnvironment, assistantWorkflow: string, webhookId?: string) =>
		await env.publish(
			await env.importWorkflow(
				loadExample('inbox', { questionLog, keywordReplies: false, assistantWorkflow, webhookId }),
			),
			'On Reply or Opt-Out',
		);

	beforeAll(async () => {
		const env = suite.env();
		mail = await startSmtpSink();
		const created = await env.client.createCredential(
			'Mail catcher',
			'smtp',
			smtpCredentialData(mail),
		);
		smtp = { id: String(created.id), name: created.name };
		questionLog = await publishQuestionLog(env);
		assistantId = await publishAssistant(env);
		relayUrl = await publishInbox(env, assistantId);
	}, 120_000);
	afterAll(async () => await mail?.stop());

	let finished = 0;
	/** Waits until the assistant has run for `texts` more texts, and returns the replies posted to `phone`. */
	async function settled(env: E2eEnvironment, texts: number, phone: string) {
		finished += texts;
		await env.client.waitForExecutions(assistantId, finished, 120_000);
		return env.sim.campaigns.filter((c) =>
			(c.body.recipientInfo as Array<{ msisdn: string }>).some((r) => r.msisdn === phone),
		);
	}

	const text = (env: E2eEnvironment, from: string, content: string) =>
		env.sim.sendInbound({ url: relayUrl, from, to: LONGCODE, content, linked: false });

	suite.it(
		'three texts within the quiet time: the agent is asked once with all three in order, and one reply goes out from the longcode',
		async (env) => {
			env.sim.reset();
			const phone = '353871110001';
			for (const content of ['Hi', 'I need to move my appointment', 'to Friday'])
				expect((await text(env, phone, content)).status).toBe(200);
			const replies = await settled(env, 3, phone);
			expect(turnsAsked(env.sim.chatRequests)).toEqual([
				'Hi\nI need to move my appointment\nto Friday',
			]);
			expect(replies).toHaveLength(1);
			expect(replies[0].body).toMatchObject({ from: LONGCODE });
			// The first reply to a person says it is an AI, in the example's words; the next does not.
			expect(String(replies[0].body.text)).toMatch(
				/^Acme Dental's AI assistant\. For a person call .*\n./,
			);

			// A text after the quiet time is a new turn, and the memory gives the model the first one.
			env.sim.reset();
			await sleep(QUIET_SECONDS * 1000 + 500);
			await text(env, phone, 'Are you open on Saturday?');
			const [next, ...more] = await settled(env, 1, phone);
			expect(more).toEqual([]);
			expect(String(next.body.text)).not.toMatch(/AI assistant/);
			// The memory is the log: the prompt carries the first turn and the reply that went out.
			const [asked] = env.sim.chatRequests;
			// Our reply as it was logged: the text sent, without its AI Disclosure line.
			const replied = String(replies[0].body.text).split('\n').slice(1).join('\n');
			expect(asked.at(-1)?.content).toBe(
				`What we said before, oldest first:\nThem: "Hi"\nThem: "I need to move my appointment"\nThem: "to Friday"\nUs: ${JSON.stringify(replied)}\n\nTheir new message:\nAre you open on Saturday?`,
			);
		},
		240_000,
	);

	suite.it(
		'two people texting at the same time: two turns, each with only its own texts, two replies',
		async (env) => {
			env.sim.reset();
			const [anna, brian] = ['353871110002', '353871110003'];
			await Promise.all([text(env, anna, 'Anna here'), text(env, brian, 'Brian here')]);
			await Promise.all([text(env, anna, 'about my order'), text(env, brian, 'about my bill')]);
			const annas = await settled(env, 4, anna);
			expect(turnsAsked(env.sim.chatRequests).sort()).toEqual([
				'Anna here\nabout my order',
				'Brian here\nabout my bill',
			]);
			expect(annas).toHaveLength(1);
			expect(env.sim.campaigns).toHaveLength(2);
		},
		240_000,
	);

	suite.it(
		'a replayed relay gets no second reply; a STOP mid-conversation gets none and is stored',
		async (env) => {
			env.sim.reset();
			const phone = '353871110004';
			await text(env, phone, 'What are your hours?');
			expect(await settled(env, 1, phone)).toHaveLength(1);
			// The same signed relay again, later (its unsigned timestamp differs).
			await sleep(1000);
			await text(env, phone, 'What are your hours?');
			expect(await settled(env, 1, phone)).toHaveLength(1);

			const stopping = '353871110005';
			await text(env, stopping, 'Hi, can you call me');
			expect((await env.sim.sendOptOut({ url: relayUrl, from: stopping })).status).toBe(200);
			expect(await settled(env, 1, stopping)).toHaveLength(0);
			const tables = await env.client.dataTables();
			const optOuts = tables.find((table) => table.name === 'opt-outs')!;
			expect((await env.client.dataTableRows(optOuts.id)).map((row) => row.phone)).toContain(
				stopping,
			);
			// Texting again after the STOP: no model is asked, nothing is sent.
			const asked = env.sim.chatRequests.length;
			await sleep(QUIET_SECONDS * 1000 + 500);
			await text(env, stopping, 'Hello?');
			expect(await settled(env, 1, stopping)).toHaveLength(0);
			expect(env.sim.chatRequests.length).toBe(asked);
		},
		240_000,
	);

	suite.it(
		'a loop with another bot, texting 16 times: the replies stop at the limit of 10 an hour',
		async (env) => {
			env.sim.reset();
			const bot = '353871110006';
			for (let n = 1; n <= 16; n++) {
				await text(env, bot, `Auto-reply ${n}: thanks for your message`);
				// Past the quiet time, with room for the inbox's hand-off: most texts are turns of their own.
				await sleep(QUIET_SECONDS * 1000 + 1500);
			}
			const replies = await settled(env, 16, bot);
			expect(turnsAsked(env.sim.chatRequests).length).toBeGreaterThan(10);
			expect(replies).toHaveLength(10);
		},
		600_000,
	);

	suite.it(
		'Reply under Retry On Fail: the provider processes the reply and answers 500, and it is posted once',
		async (env) => {
			env.sim.reset();
			const phone = '353871110007';
			const turn = {
				event: 'inbound',
				verified: true,
				from: phone,
				text: 'Hi',
				turn: 'turn:retry-on-fail',
				unverified: { to: LONGCODE },
			};
			const workflow = await env.importWorkflow(
				chain('Reply under Retry On Fail', [
					manualTrigger(),
					code('Turn', `return [{ json: ${JSON.stringify(turn)} }];`),
					{
						...phonovation('Reply', {
							resource: 'conversation',
							operation: 'reply',
							questionLog: { __rl: true, mode: 'id', value: questionLog },
							message: 'Thanks, see you Friday.',
						}),
						typeVersion: 2,
						retryOnFail: true,
						maxTries: 3,
						waitBetweenTries: 0,
					},
				]),
			);
			env.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 500, body: 'Internal Server Error' });
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger', 120_000);
			expect(env.sim.requests.filter((r) => r.path === CAMPAIGN)).toHaveLength(1);
			expect(env.sim.campaigns).toHaveLength(1);
			// The retries saw the first attempt's unknown outcome: the user is told to check, not re-sent.
			expect(execution.status).toBe('error');
			expect(JSON.stringify(execution.data.resultData.error)).toMatch(
				/could not confirm the campaign.*may have reached the provider/,
			);
		},
		120_000,
	);
	/** Staff send the example's Staff Reply Form, as its page does (multipart, with their login). */
	async function staffReply(env: E2eEnvironment, phone: string, reply: string, handBack: boolean) {
		const body = new FormData();
		body.set('field-0', `+${phone}`);
		body.set('field-1', reply);
		body.set('field-2', handBack ? 'Yes' : 'No');
		const url = `${env.client.baseUrl}/form/staff-reply`;
		// Nobody without the staff's login texts from the longcode through it.
		const stranger = await fetch(url, { method: 'POST', body });
		expect(stranger.status).toBe(401);
		const login = Buffer.from(`${STAFF_LOGIN.user}:${STAFF_LOGIN.password}`).toString('base64');
		const sent = await fetch(url, {
			method: 'POST',
			body,
			headers: { authorization: `Basic ${login}` },
		});
		expect(sent.status).toBe(200);
	}

	suite.it(
		'"can I talk to a person": staff are e-mailed, the AI stays quiet, staff reply from the longcode by the form, and after the hand-back the AI answers with their reply in its memory',
		async (env) => {
			env.sim.reset();
			mail.mails.length = 0;
			const phone = '353871110009';
			await text(env, phone, 'can I talk to a person');
			expect(await settled(env, 1, phone)).toEqual([]);
			const [told] = await mail.waitFor(1);
			expect(subjectOf(told)).toBe(`SMS from +${phone} needs a person`);
			expect(told.data).toContain('asked for a person');

			// While it is with staff, a text of theirs goes to staff too, and the AI is not asked.
			await sleep(QUIET_SECONDS * 1000 + 500);
			await text(env, phone, 'hello??');
			expect(await settled(env, 1, phone)).toEqual([]);
			await mail.waitFor(2);
			expect(mail.mails[1].data).toContain('hello??');
			expect(turnsAsked(env.sim.chatRequests)).toEqual([]);

			await staffReply(env, phone, 'Hi, Mary from reception here. Friday at 10:00 works.', true);
			const [staff] = await settled(env, 1, phone);
			expect(staff.body).toMatchObject({
				from: LONGCODE,
				text: 'Hi, Mary from reception here. Friday at 10:00 works.',
			});

			// Handed back: the AI answers again, says it is an AI again, and remembers what staff wrote.
			await text(env, phone, 'great, can I pay online?');
			const replies = await settled(env, 1, phone);
			expect(replies).toHaveLength(2);
			expect(String(replies[1].body.text)).toMatch(/^Acme Dental's AI assistant\./);
			const [asked] = env.sim.chatRequests;
			expect(asked.at(-1)?.content).toContain(
				'Us: "Hi, Mary from reception here. Friday at 10:00 works."',
			);
			expect(asked.at(-1)?.content).toContain('Them: "can I talk to a person"');
			expect(mail.mails).toHaveLength(2);
		},
		240_000,
	);

	suite.it(
		'the agent hands over by its tool: its reply to that turn goes, staff are e-mailed, and its next turn is not answered by the AI',
		async (env) => {
			env.sim.reset();
			mail.mails.length = 0;
			const phone = '353871110010';
			await text(env, phone, 'this is an emergency, my tooth broke');
			const [farewell] = await settled(env, 1, phone);
			expect(String(farewell.body.text)).toContain('The tool said:');
			const [told] = await mail.waitFor(1);
			expect(told.data).toContain('was handed to you by the assistant');
			await sleep(QUIET_SECONDS * 1000 + 500);
			await text(env, phone, 'hello?');
			expect(await settled(env, 1, phone)).toHaveLength(1);
			await mail.waitFor(2);
		},
		240_000,
	);

	suite.it(
		'the AI Disclosure again after a silence: a person last answered over a day ago is told again that they text an AI',
		async (env) => {
			env.sim.reset();
			const phone = '353871110013';
			// Their last exchange, 25 hours ago, as the inbox logged it.
			const messages = (await env.client.dataTables()).find((table) => table.name === 'messages')!;
			const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
			await env.client.insertDataTableRows(messages.id, [
				{
					kind: 'in',
					phone,
					key: 'old-key',
					text: 'Hi',
					at: dayAgo,
					arrivedAt: dayAgo,
					messageId: 'in:old',
					turn: 'turn:in:old',
				},
				{
					kind: 'out',
					phone,
					key: 'turn:in:old',
					text: 'Hello!',
					at: dayAgo,
					arrivedAt: '',
					messageId: 'out:old',
					turn: 'turn:in:old',
				},
			]);
			await text(env, phone, 'Hi again, are you open today?');
			const [reply] = await settled(env, 1, phone);
			expect(String(reply.body.text)).toMatch(/^Acme Dental's AI assistant\./);
		},
		120_000,
	);

	suite.it(
		'a person who keeps texting every 2 s for a minute gets answers by Max Wait, and a flush word puts the turn out at once',
		async (env) => {
			env.sim.reset();
			// The example with Max Wait 20 s and the flush word "send", at its own Quiet Time (5 s),
			// behind an inbox of its own; its staff form on a path of its own.
			const boundsId = await publishAssistant(
				env,
				(example) => ({
					...example,
					name: `${example.name} (bounds)`,
					nodes: example.nodes.map((node) => {
						const parameters = node.parameters as Record<string, unknown>;
						if (node.name === 'Collect Burst')
							return {
								...node,
								parameters: { ...parameters, options: { maxWaitSeconds: 20, flushWords: 'send' } },
							};
						if (node.name === 'Staff Reply Form')
							return {
								...node,
								parameters: { ...parameters, options: { path: 'staff-reply-bounds' } },
							};
						return node;
					}),
				}),
				5,
			);
			const url = await publishInbox(env, boundsId, exampleWebhookId('inbox', 'bounds'));
			const send = (from: string, content: string) =>
				env.sim.sendInbound({ url, from, to: LONGCODE, content, linked: false });
			const repliesTo = (phone: string) =>
				env.sim.campaigns.filter((c) =>
					(c.body.recipientInfo as Array<{ msisdn: string }>).some((r) => r.msisdn === phone),
				);

			const typist = '353871110011';
			for (let n = 1; n <= 30; n++) {
				expect((await send(typist, `part ${n}`)).status).toBe(200);
				await sleep(2_000);
			}
			// Answered while still texting: without Max Wait the minute would be one turn, answered after.
			const whileTexting = repliesTo(typist).length;
			expect(whileTexting).toBeGreaterThanOrEqual(1);
			await env.client.waitForExecutions(boundsId, 30, 120_000);
			// Each prompt's new message (the later ones carry the earlier turns as history first).
			const turns = turnsAsked(env.sim.chatRequests).map((prompt) =>
				prompt.split('Their new message:\n').at(-1)!,
			);
			expect(turns.length).toBeGreaterThanOrEqual(2);
			// Every part in exactly one turn, in order.
			expect(turns.join('\n').split('\n')).toEqual(
				Array.from({ length: 30 }, (_, i) => `part ${i + 1}`),
			);
			expect(repliesTo(typist)).toHaveLength(turns.length);

			env.sim.reset();
			const flusher = '353871110012';
			for (const content of ['Hi', 'move me to Friday', 'Send'])
				expect((await send(flusher, content)).status).toBe(200);
			const runs = await env.client.waitForExecutions(boundsId, 33, 120_000);
			expect(turnsAsked(env.sim.chatRequests)).toEqual(['Hi\nmove me to Friday\nSend']);
			expect(repliesTo(flusher)).toHaveLength(1);
			// The flush word's run put the turn out before the others had waited their Quiet Time.
			const ours = runs.slice(-3).map((run) => ({
				stoppedAt: Date.parse(String((run as { stoppedAt?: string }).stoppedAt)),
				turn: nodeOutput(run, 'Collect Burst').length,
			}));
			const flushed = ours.find((run) => run.turn === 1)!;
			expect(
				ours.filter((run) => run.turn === 0).every((run) => run.stoppedAt > flushed.stoppedAt),
			).toBe(true);
		},
		240_000,
	);

	suite.it(
		"Reply as the AI Agent's tool: the agent texts the person back once, from the longcode they texted",
		async (env) => {
			env.sim.reset();
			// The example with Reply as the agent's one tool instead of a node after it.
			const toolId = await publishAssistant(env, asAgentTool);
			const toolRelayUrl = await publishInbox(env, toolId, exampleWebhookId('inbox', 'reply tool'));
			const phone = '353871110008';
			for (const content of ['Hi', 'can you text me the address'])
				expect(
					(
						await env.sim.sendInbound({
							url: toolRelayUrl,
							from: phone,
							to: LONGCODE,
							content,
							linked: false,
						})
					).status,
				).toBe(200);
			const runs = await env.client.waitForExecutions(toolId, 2, 120_000);
			expect(runs.map((run) => run.status)).toEqual(['success', 'success']);
			expect(turnsAsked(env.sim.chatRequests)).toEqual(['Hi\ncan you text me the address']);
			// The model filled in the message; the turn's number and longcode came from Collect Burst.
			expect(env.sim.campaigns).toHaveLength(1);
			expect(env.sim.campaigns[0].body).toMatchObject({
				from: LONGCODE,
				// The Reply tool's default AI Disclosure leads the person's first reply.
				text: `${DEFAULT_DISCLOSURE}\n${CHAT_MODEL_TEXT}`,
				recipientInfo: [expect.objectContaining({ msisdn: phone })],
			});
			// The agent heard back what the tool did.
			const toolAnswer = env.sim.chatRequests.flat().find((m) => m.role === 'tool');
			expect(toolAnswer?.content).toContain(phone);
		},
		240_000,
	);
});

/** The example with Reply as the AI Agent's tool (the model writes the text) and nothing after the agent. */
function asAgentTool(example: WorkflowJson): WorkflowJson {
	const reply = example.nodes.find((node) => node.name === 'Reply')!;
	const { executeOnce: _once, ...node } = reply;
	const kept = new Set([
		'When the Inbox Hands a Text',
		'Collect Burst',
		'Find Opt-Outs Table First',
		'Opted Out Already?',
		'Not Opted Out?',
		'AI Agent',
	]);
	kept.add('OpenAI Chat Model');
	const tool = {
		...node,
		name: 'Text Them Back',
		type: 'n8n-nodes-phonovation.phonovationTool',
		parameters: {
			...(reply.parameters as Record<string, unknown>),
			descriptionType: 'manual',
			toolDescription: 'Texts the person who wrote to us',
			message: "={{ $fromAI('message', 'The text to send them') }}",
			options: { maxParts: 2, repliesPerHour: 10 },
		},
	};
	const connections = Object.fromEntries(
		Object.entries(example.connections)
			.filter(([from]) => kept.has(from) && from !== 'AI Agent')
			.map(([from, outputs]) => [
				from,
				Object.fromEntries(
					Object.entries(outputs as Record<string, Array<Array<{ node: string }> | null>>).map(
						([type, branches]) => [
							type,
							branches.map((branch) => (branch ?? []).filter((to) => kept.has(to.node))),
						],
					),
				),
			]),
	);
	return {
		...example,
		name: `${example.name} (Reply as tool)`,
		nodes: [...example.nodes.filter((n) => kept.has(n.name)), tool],
		connections: {
			...connections,
			[tool.name]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}
