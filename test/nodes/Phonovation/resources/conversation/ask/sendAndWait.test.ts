import type { INodeExecutionData } from 'n8n-workflow';

import { PhonovationApi } from '../../../../../../credentials/PhonovationApi.credentials';
import { Phonovation } from '../../../../../../nodes/Phonovation/Phonovation.node';
import { answerCodeOf } from '../../../../../../nodes/Phonovation/resources/conversation/ask/answerCodes';
import { INBOX_PROTOCOL } from '../../../../../../nodes/Phonovation/resources/conversation/inboxWorkflow';
import { questionRef } from '../../../../../../nodes/Phonovation/resources/conversation/proof/questionRef';
import { Engine } from '../../../../../harness/engine';
import { QUESTION_LOG, QuestionLog } from '../../../../../harness/question-log';
import { type Simulator, simulatorCredentialData, startSimulator } from '../../../../../simulator';
import { sharedFixture } from '../../../fixture';

const CAMPAIGN = '/api/v2/Campaign';
const ASK = {
	resource: 'conversation',
	operation: 'sendAndWait',
	from: '353851234567',
	recipients: '0871234567',
	message: 'Reply YES to confirm',
	responseType: 'approval',
	questionLog: QUESTION_LOG,
};
const REF = /^test-execution\.0\.[A-Za-z0-9_-]{12}$/;

/**
 * Mistakes Send and Wait for Reply catches before a question is texted (what it does after is tested in a real n8n,
 * e2e).
 */
describe('Send and Wait for Reply: nothing is sent when the question cannot be answered', () => {
	const fixture = sharedFixture();
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});
	beforeEach(() => log.clear());

	it.each<[string, Record<string, unknown>, INodeExecutionData[], RegExp]>([
		[
			'more than one item (n8n resumes one waiting node per execution)',
			{},
			[{ json: {} }, { json: {} }],
			/asks one question per execution, and 2 items came in/,
		],
		[
			'an alphanumeric sender, which cannot be answered',
			{ from: 'Phonovation' },
			[{ json: {} }],
			/^Sender: "Phonovation" cannot receive replies/,
		],
		[
			'a number it cannot read',
			{ recipients: 'call me' },
			[{ json: {} }],
			/^To: "call me" is not a phone number/,
		],
		[
			'Default Country Code 35',
			{ options: { defaultCountryCode: '35' } },
			[{ json: {} }],
			/^Default Country Code "35" is not a country calling code/,
		],
		[
			'a word both yes and no',
			{ options: { yesWords: 'YES, NO' } },
			[{ json: {} }],
			/^Yes Words \/ No Words: "NO" is both a yes and a no word/,
		],
		[
			'a stop word as an answer (CANCEL would opt the number out)',
			{ options: { noWords: 'NO, CANCEL' } },
			[{ json: {} }],
			/^Yes Words \/ No Words: "CANCEL" is a stop word/,
		],
		[
			'a Limit Wait Time that is not a number of minutes',
			{ options: { limitWaitTime: '={{ "ten" }}' } },
			[{ json: {} }],
			/^Limit Wait Time: must be a number of minutes from 0/,
		],
		[
			'a negative Limit Wait Time',
			{ options: { limitWaitTime: -5 } },
			[{ json: {} }],
			/^Limit Wait Time: must be a number of minutes/,
		],
	])('%s', async (_case, change, items, message) => {
		const f = fixture();
		const result = await f.run({ ...ASK, ...change }, items);
		expect(result.error?.message).toMatch(message);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
		expect(log.calls).toEqual([]);
	});

	it.each<[string, (log: QuestionLog) => void, Record<string, unknown>, RegExp]>([
		[
			'no Question Log chosen',
			() => {},
			{ questionLog: '={{ "" }}' },
			/^Question Log: choose the workflow/,
		],
		[
			'a Question Log that fails (its Data Table is missing)',
			(l) => (l.fail = new Error('Could not find data table "questions"')),
			{},
			/^Question Log: the workflow question-log failed: Could not find data table "questions"$/,
		],
		[
			'a log whose phone column is a number: the question could never be found again',
			(l) => (l.storeAs = (row) => ({ ...row, phone: Number(row.phone) })),
			{},
			/^Question Log: the workflow did not give the question back as recorded/,
		],
		[
			'a workflow that does not give the question back (not the question log)',
			(l) => l.rows.set('x', {}),
			{ questionLog: { __rl: true, mode: 'id', value: 'another-workflow' } },
			/^Question Log: the workflow another-workflow failed: Workflow does not exist/,
		],
		[
			'an inbox of an earlier version (it answers without the protocol it speaks)',
			(l) => (l.speaks = null),
			{},
			new RegExp(
				`^Question Log: the workflow is an inbox of an earlier n8n-nodes-phonovation, or not the inbox \\(it does not answer in inbox protocol ${INBOX_PROTOCOL}\\): this node stopped there, before texting or resuming anything more`,
			),
		],
		[
			'an inbox of a newer version',
			(l) => (l.speaks = INBOX_PROTOCOL + 1),
			{},
			new RegExp(
				`^Question Log: the workflow is an inbox of a newer n8n-nodes-phonovation \\(protocol ${INBOX_PROTOCOL + 1}; this package speaks ${INBOX_PROTOCOL}\\): update the package`,
			),
		],
	])('%s: the question is not texted', async (_case, arrange, change, message) => {
		const f = fixture();
		arrange(log);
		const result = await f.run({ ...ASK, ...change }, [{ json: {} }]);
		expect(result.error?.message).toMatch(message);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('an inbox of another version: the error says how to re-import it over the old one, keeping its id and rows', async () => {
		const f = fixture();
		log.speaks = 1;
		const result = await f.run(ASK, [{ json: {} }]);
		expect(result.error?.description).toMatch(
			/^To re-import the inbox over workflow question-log: open that workflow, select all its nodes and delete them, choose ⋯ ▸ Import ▸ From File with ~\/\.n8n\/nodes\/node_modules\/n8n-nodes-phonovation\/examples\/inbox\/workflow\.json .*Its Data Tables and their rows, waiting questions included, are kept/,
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('is recorded before it is texted: reference, normalised number, its own signed resume URL, expiry', async () => {
		const f = fixture();
		const before = Date.now();
		const result = await f.run(ASK, [{ json: {} }]);
		expect(result.error).toBeUndefined();
		const [row] = [...log.rows.values()];
		const sent = f.sim.campaigns[0].body.recipientInfo[0];
		expect(row).toEqual({
			reference: sent.notifyId,
			phone: '353871234567',
			resumeUrl: expect.stringMatching(
				/^http:\/\/127\.0\.0\.1:5678\/webhook-waiting\/test-execution\/phonovation-node\?signature=[0-9a-f]{64}$/,
			),
			askedAt: expect.any(String),
			expiresAt: expect.any(String),
		});
		const askedAt = Date.parse(String(row.askedAt));
		expect(askedAt).toBeGreaterThanOrEqual(before - 1000);
		// A day by default: no question waits for ever.
		expect(Date.parse(String(row.expiresAt)) - askedAt).toBe(1440 * 60_000);
	});

	it('without a Relay Secret in the credential: the answer could not be proven', async () => {
		const f = fixture();
		f.engine.credentials.set('cred-1', {
			...simulatorCredentialData(f.sim),
			accessToken: '',
			relaySecret: '',
		});
		const result = await f.run(ASK, [{ json: {} }]);
		expect(result.error?.message).toBe(
			'Credential: set a Relay Secret; it proves that the answer came from the number asked',
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('an excluded number is not asked, and the run says so instead of waiting', async () => {
		const f = fixture();
		const result = await f.run({ ...ASK, options: { excludeNumbers: '0871234567' } }, [
			{ json: {} },
		]);
		expect(result.error?.message).toMatch(/^Recipients: No valid recipient left/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('asks once, from the longcode, with a Notify ID naming this execution, and pauses the run', async () => {
		const f = fixture();
		const result = await f.run(ASK, [{ json: { appointment: 'A-7' } }], {
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 0,
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body)).toEqual([
			expect.objectContaining({
				from: '353851234567',
				text: 'Reply YES to confirm',
				recipientInfo: [
					{
						msisdn: '353871234567',
						notifyId: expect.stringMatching(REF),
					},
				],
			}),
		]);
		expect(result.items.map((i) => i.json)).toEqual([
			expect.objectContaining({
				appointment: 'A-7',
				timedOut: true,
				approved: null,
				answer: 'timedOut',
				to: '353871234567',
				sent: expect.objectContaining({ status: 'accepted' }),
			}),
		]);
	});

	it('a question that may have gone out (a proxy page after processing) is never texted again: the run waits for its answer', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 503, body: '<html>upstream</html>' });
		const result = await f.run(ASK, [{ json: {} }], {
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 0,
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		expect(result.items[0].json).toMatchObject({
			answer: 'timedOut',
			sent: expect.objectContaining({ status: 'unconfirmed' }),
		});
	});

	it('with Answer Code, the question ends with its code, the same on every attempt', async () => {
		const f = fixture();
		const result = await f.run({ ...ASK, options: { answerCode: true } }, [{ json: {} }]);
		expect(result.error).toBeUndefined();
		const [text] = f.sim.campaigns.map((c) => c.body.text as string);
		expect(text).toMatch(/^Reply YES to confirm\nReply YES (\d{4}) or NO \1$/);
	});

	it('with Answer Code, a code that a question still waiting for the number holds is never given again', async () => {
		const f = fixture();
		const secret = f.sim.config.relaySecret;
		const phone = '353871234567';
		const asked = { nodeId: 'phonovation-node', msisdn: phone, ask: 0 };
		const codeOf = (executionId: string, nodeId = asked.nodeId) =>
			answerCodeOf(questionRef({ ...asked, executionId, nodeId }, secret)!, secret);
		const firstCode = codeOf('test-execution');
		// Another review to the same reviewer, waiting, that happens to hold this question's first code.
		let execution = 0;
		while (codeOf(String(++execution), 'other-review') !== firstCode);
		const reference = questionRef(
			{ ...asked, executionId: String(execution), nodeId: 'other-review' },
			secret,
		)!;
		const row = { reference, phone, resumeUrl: 'http://127.0.0.1:5678/webhook-waiting/x' };
		log.rows.set(reference, { ...row, askedAt: new Date().toISOString(), expiresAt: '' });
		const result = await f.run({ ...ASK, options: { answerCode: true } }, [{ json: {} }]);
		expect(result.error).toBeUndefined();
		const [campaign] = f.sim.campaigns;
		const code = /\nReply YES (\d{4}) or NO \1$/.exec(campaign.body.text as string)?.[1];
		expect(code).toBeDefined();
		expect(code).not.toBe(firstCode);
		const { notifyId } = campaign.body.recipientInfo[0];
		expect(answerCodeOf(notifyId, secret)).toBe(code);
		expect(log.rows.get(notifyId)).toMatchObject({ phone });
		// The number's waiting questions are read before the question is recorded and texted.
		expect(log.calls.map((call) => call.action)).toEqual(['find', 'record', 'find']);
	});

	/** Another review to the same reviewer, whose code is this question's first code: its reference. */
	function rivalHoldingFirstCode(secret: string): string {
		const asked = { nodeId: 'phonovation-node', msisdn: '353871234567', ask: 0 };
		const codeOf = (executionId: string, nodeId = asked.nodeId) =>
			answerCodeOf(questionRef({ ...asked, executionId, nodeId }, secret)!, secret);
		const firstCode = codeOf('test-execution');
		let execution = 0;
		while (codeOf(String(++execution), 'other-review') !== firstCode);
		return questionRef(
			{ ...asked, executionId: String(execution), nodeId: 'other-review' },
			secret,
		)!;
	}

	it.each([
		['asked a moment before: this one withdraws its row and takes another code', -1_000, true],
		['asked a moment after: the other gives way, this one keeps its code', 1_000, false],
	])(
		'with Answer Code, another question to the number logged with the same code while this one was recorded, %s',
		async (_, offsetMs, yields) => {
			const f = fixture();
			const secret = f.sim.config.relaySecret;
			const rival = rivalHoldingFirstCode(secret);
			// The other asker records its question while this one records its own: the first read saw none.
			log.storeAs = (row) => {
				if (!log.rows.has(rival))
					log.rows.set(rival, {
						reference: rival,
						phone: '353871234567',
						resumeUrl: 'http://127.0.0.1:5678/webhook-waiting/x',
						askedAt: new Date(Date.parse(String(row.askedAt)) + offsetMs).toISOString(),
						expiresAt: '',
					});
				return row;
			};
			const result = await f.run({ ...ASK, options: { answerCode: true } }, [{ json: {} }]);
			expect(result.error).toBeUndefined();
			expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
			const { notifyId } = f.sim.campaigns[0].body.recipientInfo[0];
			const code = /\nReply YES (\d{4}) or NO \1$/.exec(
				f.sim.campaigns[0].body.text as string,
			)?.[1];
			expect(answerCodeOf(notifyId, secret)).toBe(code);
			expect(code === answerCodeOf(rival, secret)).toBe(!yields);
			const mine = [...log.rows.values()].filter((row) => row.reference !== rival);
			if (yields) {
				expect(log.calls.map((call) => call.action)).toEqual([
					'find',
					'record',
					'find',
					'record',
					'record',
					'find',
				]);
				// The row first recorded is withdrawn: it expired when it was asked, so no reply goes to it.
				const [withdrawn, kept] = mine;
				expect(withdrawn.expiresAt).toBe(withdrawn.askedAt);
				expect(kept).toMatchObject({ reference: notifyId });
				expect(Date.parse(String(kept.expiresAt))).toBeGreaterThan(Date.now());
			} else {
				expect(log.calls.map((call) => call.action)).toEqual(['find', 'record', 'find']);
				expect(mine).toEqual([expect.objectContaining({ reference: notifyId })]);
			}
		},
	);

	it('with Answer Code and nothing waiting for the number, the first code is the one given', async () => {
		const f = fixture();
		const secret = f.sim.config.relaySecret;
		const result = await f.run({ ...ASK, options: { answerCode: true } }, [{ json: {} }]);
		expect(result.error).toBeUndefined();
		const { notifyId } = f.sim.campaigns[0].body.recipientInfo[0];
		const first = { executionId: 'test-execution', nodeId: 'phonovation-node', ask: 0 };
		expect(notifyId).toBe(questionRef({ ...first, msisdn: '353871234567' }, secret));
	});

	it('with Answer Code, a Free Text question asks for its code at the start of the reply', async () => {
		const f = fixture();
		const result = await f.run(
			{ ...ASK, responseType: 'freeText', options: { answerCode: true } },
			[{ json: {} }],
		);
		expect(result.error).toBeUndefined();
		const [text] = f.sim.campaigns.map((c) => c.body.text as string);
		expect(text).toMatch(/^Reply YES to confirm\nStart your reply with \d{4}$/);
	});
});

/** The node as n8n's AI Agent human review runs it (the `…HitlTool` type n8n derives from it). */
describe("Send and Wait as the AI Agent's human review", () => {
	const HITL = 'n8n-nodes-phonovation.phonovationHitlTool';
	let sim: Simulator;
	let engine: Engine;
	let log: QuestionLog;
	beforeAll(async () => {
		sim = await startSimulator();
		engine = new Engine({
			nodeTypes: { [HITL]: new Phonovation() },
			credentialTypes: [new PhonovationApi()],
		});
		engine.credentials.set('cred-1', { ...simulatorCredentialData(sim), accessToken: '' });
		log = new QuestionLog(engine);
	});
	afterAll(async () => await sim.stop());

	it("texts n8n's message cut to fit, with the question's code, and records itself", async () => {
		const message = `The agent wants to run this tool: Refund\n\nInput:\n${JSON.stringify({
			order: 'A-7',
			reason: 'x'.repeat(600),
		})}`;
		const result = await engine.runNode(
			{
				id: 'review-node',
				name: 'Human Review',
				type: HITL,
				typeVersion: 1,
				position: [0, 0],
				parameters: { ...ASK, message },
				credentials: { phonovationApi: { id: 'cred-1', name: 'Phonovation' } },
			},
			[{ json: {} }],
		);
		expect(result.error).toBeUndefined();
		const [text] = sim.campaigns.map((c) => c.body.text as string);
		const [kept, codeLine] = text.split('\nReply YES ');
		expect(kept).toHaveLength(280);
		expect(kept.startsWith('The agent wants to run this tool: Refund')).toBe(true);
		// The reviewer is told there is more than they see.
		expect(kept).toMatch(/… \(\+\d+ characters not shown\)$/);
		expect(codeLine).toMatch(/^(\d{4}) or NO \1$/);
		expect([...log.rows.values()]).toHaveLength(1);
	});
});
