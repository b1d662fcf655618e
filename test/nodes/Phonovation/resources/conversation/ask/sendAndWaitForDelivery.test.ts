import type { INodeExecutionData } from 'n8n-workflow';

import { simulatorCredentialData } from '../../../../../simulator';
import { QUESTION_LOG, QuestionLog } from '../../../../../harness/question-log';
import { sharedFixture } from '../../../fixture';
import { openToken } from '../../../../../../nodes/Phonovation/resources/conversation/proof/sealedResumeToken';

const CAMPAIGN = '/api/v2/Campaign';
const REMIND = {
	resource: 'conversation',
	operation: 'sendAndWaitForDelivery',
	from: 'Phonovation',
	recipients: '0871234567',
	message: 'Reminder: your appointment is tomorrow at 10:00',
	questionLog: QUESTION_LOG,
};
const REF = /^test-execution\.0\.[A-Za-z0-9_-]{12}$/;
const [NO_RECEIPT, DELIVERED, FAILED] = [0, 1, 2];

/** Which of the three outputs got items, and how many. */
const counts = (outputs: INodeExecutionData[][]) => outputs.map((output) => output.length);

/**
 * Send and Wait for Delivery in the engine: what it catches before the text is sent, how it
 * records and sends it, and where the run goes before any receipt (what a receipt does is tested
 * in a real n8n, e2e).
 */
describe('Send and Wait for Delivery: nothing is sent when the receipt could not be waited for', () => {
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
			/texts one number per execution, and 2 items came in/,
		],
		['a number it cannot read', { recipients: 'call me' }, [{ json: {} }], /^To: "call me"/],
		[
			'no Limit Wait Time (a receipt may never come: the run must not wait for ever)',
			{ options: { limitWaitTime: 0 } },
			[{ json: {} }],
			/^Limit Wait Time: must be a number of minutes from 1 to 2880, got "0"/,
		],
		[
			'a Limit Wait Time past the 48 hours a receipt can take',
			{ options: { limitWaitTime: 2881 } },
			[{ json: {} }],
			/^Limit Wait Time: must be a number of minutes from 1 to 2880/,
		],
		[
			'a log that drops the waitsFor column: a receipt would be offered to the wrong run',
			{},
			[{ json: {} }],
			/^Question Log: the workflow did not give the text back as recorded \(.*and waitsFor\?\)/,
		],
	])('%s', async (name, change, items, message) => {
		const f = fixture();
		if (name.startsWith('a log that drops')) log.storeAs = ({ waitsFor: _dropped, ...row }) => row;
		const result = await f.run({ ...REMIND, ...change }, items);
		expect(result.error?.message).toMatch(message);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('without a Relay Secret in the credential: a receipt could not be proven', async () => {
		const f = fixture();
		f.engine.credentials.set('cred-1', {
			...simulatorCredentialData(f.sim),
			accessToken: '',
			relaySecret: '',
		});
		const result = await f.run(REMIND, [{ json: {} }]);
		expect(result.error?.message).toBe(
			'Credential: set a Relay Secret; it proves that a receipt is for this text',
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('an excluded number is not texted', async () => {
		const f = fixture();
		const result = await f.run({ ...REMIND, options: { excludeNumbers: '+353 87 123 4567' } }, [
			{ json: {} },
		]);
		expect(result.error?.message).toMatch(/^Recipients: No valid recipient left/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});
});

describe('Send and Wait for Delivery: sent once, then waiting at No Receipt', () => {
	const fixture = sharedFixture();
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});
	beforeEach(() => log.clear());

	it('records itself as waiting for a receipt before it texts, then texts once with its Notify ID', async () => {
		const f = fixture();
		const before = Date.now();
		const result = await f.run(REMIND, [{ json: { patient: 'A-7', email: 'a7@example.com' } }], {
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 0,
		});
		expect(result.error).toBeUndefined();
		const [sent] = f.sim.campaigns.map((c) => c.body);
		expect(sent).toMatchObject({
			from: 'Phonovation',
			text: 'Reminder: your appointment is tomorrow at 10:00',
			recipientInfo: [{ msisdn: '353871234567', notifyId: expect.stringMatching(REF) }],
		});
		const [row] = [...log.rows.values()];
		expect(row).toEqual({
			reference: sent.recipientInfo[0].notifyId,
			phone: '353871234567',
			// No run token at rest: it opens every later wait of the run, so only its sealed form is kept.
			resumeUrl: expect.stringMatching(
				/\/webhook-waiting\/test-execution\/phonovation-node\?sealed=[\w-]+$/,
			),
			askedAt: expect.any(String),
			expiresAt: expect.any(String),
			waitsFor: 'receipt',
		});
		const sealed = new URL(String(row.resumeUrl)).searchParams.get('sealed')!;
		const target = { executionId: 'test-execution', nodeId: 'phonovation-node' };
		expect(openToken(sealed, target, f.sim.config.relaySecret)).toMatch(/^[0-9a-f]{32,}$/);
		expect(openToken(sealed, target, 'another relay secret')).toBeUndefined();
		expect(
			openToken(sealed, { ...target, executionId: 'another' }, f.sim.config.relaySecret),
		).toBeUndefined();
		// An hour by default.
		expect(Date.parse(String(row.expiresAt)) - Date.parse(String(row.askedAt))).toBe(60 * 60_000);
		expect(Date.parse(String(row.askedAt))).toBeGreaterThanOrEqual(before - 1000);
		// Paused: the item waits at No Receipt (where n8n passes it when the limit runs out), with the input's fields.
		expect(counts(result.outputs)).toEqual([1, 0, 0]);
		expect(result.outputs[NO_RECEIPT][0].json).toEqual({
			patient: 'A-7',
			email: 'a7@example.com',
			delivery: 'noReceipt',
			reason:
				'no delivery receipt within 60 minutes; the text may still arrive (receipts can come up to 48 hours late)',
			to: '353871234567',
			notifyId: sent.recipientInfo[0].notifyId,
			sentAt: row.askedAt,
			sent: expect.objectContaining({ status: 'accepted' }),
			receipt: null,
		});
	});

	it('a text that may have gone out (a proxy page after processing) is never sent again: the run waits for its receipt', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 503, body: '<html>upstream</html>' });
		const result = await f.run(REMIND, [{ json: {} }], {
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 0,
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		expect(counts(result.outputs)).toEqual([1, 0, 0]);
		expect(result.outputs[NO_RECEIPT][0].json.sent).toMatchObject({ status: 'unconfirmed' });
	});

	it('a number the provider refuses goes out of Failed at once, with its reason; nothing waits', async () => {
		const f = fixture();
		const answer = {
			success: true,
			message: 'Campaign queued',
			errors: [{ msisdn: '353871234567', error: 'Barred' }],
		};
		f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 200, body: JSON.stringify(answer) });
		const result = await f.run(REMIND, [{ json: { patient: 'A-7' } }]);
		expect(result.error).toBeUndefined();
		expect(counts(result.outputs)).toEqual([0, 0, 1]);
		expect(result.outputs[FAILED][0].json).toMatchObject({
			patient: 'A-7',
			delivery: 'failed',
			reason: expect.stringMatching(/^rejected by provider: .*Barred/),
			to: '353871234567',
			receipt: null,
		});
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
	});

	it('under Continue On Fail an error goes out of Failed, never out of Delivered', async () => {
		const f = fixture();
		const result = await f.run({ ...REMIND, recipients: 'call me' }, [{ json: {} }], {
			continueOnFail: true,
		});
		expect(counts(result.outputs)).toEqual([0, 0, 1]);
		expect(result.outputs[FAILED][0].json.error).toMatch(/^To: "call me"/);
		expect(result.outputs[DELIVERED]).toEqual([]);
	});
});
