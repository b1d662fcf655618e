// The inbox's log of an SMS assistant's messages, and its hand-off to the assistant, in a real n8n.
import { randomUUID } from 'node:crypto';

import { INBOX_PROTOCOL } from '../../nodes/Phonovation/resources/conversation/inboxWorkflow';
import { useE2eEnvironment } from './support/environment';
import { loadExample, withAssistant } from './support/examples';
import { nodeOutput, type WorkflowJson } from './support/n8n-client';
import { chain, manualTrigger } from './support/workflow-builder';

/**
 * The calls an assistant makes to the inbox (When Asked or Answered), as our nodes make them: one
 * item `{ action, … }` through Execute Workflow, reading the items of the log's last node. The
 * `messages` Data Table they keep is created on the first of them, never by a question.
 */

const PERSON = '353871234001';
const OTHER = '353871234002';
const STRANGER = '3538712340015';
/** Log times: ISO strings, which the claim compares as text. */
const AT = (minute: number) => `2030-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

type Json = Record<string, unknown>;

/** A row as the log gives it back: the seven fields a converse call wrote, all text. */
const message = (fields: {
	kind: 'in' | 'out';
	phone: string;
	text: string;
	at: string;
	turn?: string;
}) => ({
	key: `${fields.kind} ${fields.phone} ${fields.text}`,
	id: `run:${fields.text}`,
	turn: '',
	// A text that came in carries the trigger's stamp of its arrival (the log keeps it); a reply none.
	arrivedAt: fields.kind === 'in' ? new Date(Date.parse(fields.at) - 1000).toISOString() : '',
	...fields,
	// The Data Table's own row number: the order the rows were written in.
	seq: expect.any(Number) as number,
});

/** A workflow started by another that does nothing with what it is given ("Accept all data"). */
const assistantWorkflow = () =>
	chain(`Assistant ${randomUUID().slice(0, 8)}`, [
		{
			id: randomUUID(),
			name: 'When Texted',
			type: 'n8n-nodes-base.executeWorkflowTrigger',
			typeVersion: 1.1,
			position: [0, 0] as [number, number],
			parameters: { inputSource: 'passthrough' },
		},
	]);

describe("the inbox's messages log and its hand-off to an assistant, in n8n", () => {
	const suite = useE2eEnvironment();
	let inbox: { id: string; url: string };
	let assistantId: string;

	beforeAll(async () => {
		const { client, importWorkflow, publish } = suite.env();
		// Called from a relay (production), a sub-workflow runs as published.
		const assistant = await importWorkflow(assistantWorkflow());
		await client.publishWorkflow(assistant.id);
		assistantId = assistant.id;
		const example = loadExample('inbox', { webhookId: randomUUID() });
		const workflow = await importWorkflow({
			...withAssistant(example, assistantId),
			name: `${example.name} (assistant)`,
		});
		inbox = { id: workflow.id, url: await publish(workflow, 'On Reply or Opt-Out') };
	}, 60_000);

	/** Calls the inbox's log with one item, as our nodes do; the items its last node put out. */
	async function call(input: Json): Promise<Json[]> {
		const { client, importWorkflow } = suite.env();
		const caller = await importWorkflow(
			chain(`Call ${String(input.action)} ${randomUUID().slice(0, 8)}`, [
				manualTrigger(),
				{
					id: randomUUID(),
					name: 'Input',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [220, 0],
					parameters: { mode: 'raw', jsonOutput: JSON.stringify(input), options: {} },
				},
				{
					id: randomUUID(),
					name: 'Call the Log',
					type: 'n8n-nodes-base.executeWorkflow',
					typeVersion: 1.3,
					position: [440, 0],
					parameters: {
						workflowId: { __rl: true, mode: 'id', value: inbox.id },
						mode: 'once',
						options: {},
					},
				},
			]),
		);
		const run = await client.runAndWait(caller.id, 'Manual Trigger');
		expect({ status: run.status, error: run.data.resultData.error?.message }).toEqual({
			status: 'success',
			error: undefined,
		});
		// The handshake: every item the inbox hands back says the protocol it speaks.
		const answer = nodeOutput(run, 'Call the Log') as Json[];
		expect(answer.map((item) => item.inboxProtocol)).toEqual(answer.map(() => INBOX_PROTOCOL));
		return answer.map(({ inboxProtocol: _spoken, ...item }) => item);
	}

	const tableNames = async () =>
		(await suite.env().client.dataTables()).map((table) => table.name).sort();

	suite.it(
		'a question recorded and found creates the questions table, and no messages table',
		async () => {
			const question = {
				reference: 'conversation-log.1',
				phone: PERSON,
				resumeUrl: 'http://n8n.invalid/webhook-waiting/1',
				askedAt: AT(0),
				expiresAt: AT(59),
				waitsFor: '',
			};
			expect(await call({ action: 'record', ...question })).toEqual([
				expect.objectContaining(question),
			]);
			expect(await call({ action: 'find', phone: PERSON, reference: '' })).toEqual([
				expect.objectContaining(question),
			]);
			expect(await tableNames()).toEqual(['questions']);
		},
	);

	const first = message({ kind: 'in', phone: PERSON, text: 'Hi', at: AT(1) });
	const elsewhere = message({ kind: 'in', phone: OTHER, text: 'Hello', at: AT(1) });
	const reply = message({
		kind: 'out',
		phone: PERSON,
		text: 'Hi! How can I help?',
		at: AT(2),
		turn: 'turn-0',
	});
	const second = message({ kind: 'in', phone: PERSON, text: 'Is it open', at: AT(3) });
	const later = message({ kind: 'in', phone: PERSON, text: 'on Sunday?', at: AT(4) });

	suite.it(
		'converse logs a message and gives back every message of its number; conversation gives them again',
		async () => {
			// The number's rows of the day, then the first row ever logged with the key (here the
			// message itself, again).
			expect(await call({ action: 'converse', ...first })).toEqual([first, first]);
			expect(await tableNames()).toEqual(['messages', 'questions']);
			expect(await call({ action: 'converse', ...elsewhere })).toEqual([elsewhere, elsewhere]);
			expect(await call({ action: 'converse', ...reply })).toEqual([first, reply, reply]);
			// Logged out of order: given back in the order of their times.
			expect(await call({ action: 'converse', ...later })).toEqual([first, reply, later, later]);
			expect(await call({ action: 'converse', ...second })).toEqual([
				first,
				reply,
				second,
				later,
				second,
			]);

			expect(await call({ action: 'conversation', phone: PERSON })).toEqual([
				first,
				reply,
				second,
				later,
			]);
			// A number with no message: one empty item, so the caller has an answer.
			expect(await call({ action: 'conversation', phone: '353870000000' })).toEqual([{}]);
			expect(await tableNames()).toEqual(['messages', 'questions']);
		},
	);

	suite.it(
		"claim takes only its number's texts no turn has taken, up to upTo; a second turn claiming them takes nothing",
		async () => {
			// Up to the second text's time, inclusive: the first two texts, not the reply, not the later text.
			const claimed = await call({ action: 'claim', phone: PERSON, turn: 'turn-1', upTo: AT(3) });
			expect(claimed).toEqual([
				{ ...first, turn: 'turn-1' },
				{ ...second, turn: 'turn-1' },
			]);
			// Another run claiming the same texts for its own turn gets none of them.
			expect(await call({ action: 'claim', phone: PERSON, turn: 'turn-2', upTo: AT(3) })).toEqual([
				{},
			]);
			const rows = await suite
				.env()
				.client.dataTableRows(
					(await suite.env().client.dataTables()).find((table) => table.name === 'messages')!.id,
				);
			expect(
				rows
					.map((row) => [row.messageId, row.turn])
					.sort(([a], [b]) => String(a).localeCompare(String(b))),
			).toEqual(
				[
					[first.id, 'turn-1'],
					[elsewhere.id, ''],
					[reply.id, 'turn-0'],
					[second.id, 'turn-1'],
					[later.id, ''],
				].sort(([a], [b]) => a.localeCompare(b)),
			);
		},
	);

	suite.it(
		'the first row of a relay comes back, whatever its number; a question is found by the signed text that settled it',
		async () => {
			// The same key (the signed From + Content) logged for another number: the boundary moved.
			const moved = {
				...message({ kind: 'in', phone: STRANGER, text: 'i', at: AT(5) }),
				key: first.key,
			};
			// The stranger's rows of the day, then the first row ever logged with the key, whatever its
			// number, however old: the number it was logged for first is the sender.
			expect(await call({ action: 'converse', ...moved })).toEqual([
				moved,
				{ ...first, turn: 'turn-1' },
			]);
			// Rows are given back with the order they were written in.
			const [own, copy] = await call({ action: 'conversation', phone: STRANGER, key: first.key });
			expect(Number(own.seq)).toBeGreaterThan(Number(copy.seq));

			// A text of the stranger's older than the day every run reads is never claimed.
			const stale = message({
				kind: 'in',
				phone: STRANGER,
				text: 'old',
				at: new Date(Date.now() - 2 * 24 * 60 * 60_000).toISOString(),
			});
			await call({ action: 'converse', ...stale });
			const claimed = await call({ action: 'claim', phone: STRANGER, turn: 'turn-9', upTo: AT(9) });
			expect(claimed.map((row) => row.id)).toEqual([moved.id]);

			const mark = 't:0123456789abcdef0123456789abcdef01234567@';
			await call({
				action: 'settle',
				reference: 'conversation-log.1',
				settledBy: `0123456789abcdef0123456789abcdef01234567 ${mark}mxcf00aa`,
			});
			const bySettled = await call({
				action: 'find',
				phone: STRANGER,
				reference: '',
				settled: mark,
			});
			expect(bySettled).toEqual([expect.objectContaining({ reference: 'conversation-log.1' })]);
			// Without the mark, or with another, nothing of the other number.
			expect(await call({ action: 'find', phone: STRANGER, reference: '' })).toEqual([{}]);
			expect(
				await call({ action: 'find', phone: STRANGER, reference: '', settled: 't:ffff@' }),
			).toEqual([{}]);
		},
	);

	suite.it(
		'with an Assistant chosen in Deliver to Waiting Question, a text no question waits for starts the assistant with the trigger item, and gets no keyword reply',
		async () => {
			const { client, sim } = suite.env();
			sim.reset();
			expect(
				(await sim.sendInbound({ url: inbox.url, from: OTHER, content: 'What time do you open?' }))
					.status,
			).toBe(200);
			const [handed] = await client.waitForExecutions(assistantId, 1, 60_000);
			expect(handed.status).toBe('success');
			expect(nodeOutput(handed, 'When Texted')).toEqual([
				expect.objectContaining({
					event: 'inbound',
					verified: true,
					from: OTHER,
					text: 'What time do you open?',
					sessionId: `sms:${OTHER}`,
					relayKey: expect.any(String),
					unverified: expect.objectContaining({ to: expect.any(String) }),
				}),
			]);
			const [relay] = await client.waitForExecutions(inbox.id, 1, 60_000, { mode: 'webhook' });
			expect(relay.status).toBe('success');
			expect(nodeOutput(relay, 'Deliver to Waiting Question')).toEqual([
				expect.objectContaining({ handedToAssistant: true }),
			]);
			// Keyword replies are on in this copy: the assistant answers instead of them.
			expect(relay.data.resultData.runData['Once per Text']).toBeUndefined();
			expect(sim.campaigns).toEqual([]);
		},
	);
});
