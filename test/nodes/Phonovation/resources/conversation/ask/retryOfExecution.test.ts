import type { IExecuteContextData, INodeParameters } from 'n8n-workflow';

import type { ExecutionOptions, NodeRunResult } from '../../../../../harness/engine';
import { QUESTION_LOG, QuestionLog } from '../../../../../harness/question-log';
import { simulatorCredentialData } from '../../../../../simulator';
import { type PhonovationFixture, sharedFixture } from '../../../fixture';
import { readResumeUrl } from '../../../../../../nodes/Phonovation/resources/conversation/proof/resumeUrl';

const CAMPAIGN = '/api/v2/Campaign';
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };
/** A Retry of an execution is a new execution (a new id) handed the saved node contexts. */
const RETRY_ID = '9042';
const ASK = {
	resource: 'conversation',
	operation: 'sendAndWait',
	from: '353851234567',
	recipients: '0871234567',
	message: 'Reply YES to confirm',
	responseType: 'approval',
	questionLog: QUESTION_LOG,
};
const REMIND = {
	resource: 'conversation',
	operation: 'sendAndWaitForDelivery',
	from: 'Phonovation',
	recipients: '0871234567',
	message: 'Reminder: your appointment is tomorrow at 10:00',
	questionLog: QUESTION_LOG,
};

const contextOf = (result: NodeRunResult): IExecuteContextData =>
	result.run.data.executionData!.contextData!;

/** The options of a Retry (Executions → Retry) of the execution that gave `result`. */
const retryOf = (result: NodeRunResult, executionId = RETRY_ID): ExecutionOptions => ({
	mode: 'retry',
	executionId,
	contextData: contextOf(result),
});

/** The Notify IDs posted to the provider so far, in order. */
const postedRefs = (f: PhonovationFixture): string[] =>
	f.sim.campaigns.flatMap((c) =>
		(c.body.recipientInfo as Array<{ notifyId: string }>).map((r) => r.notifyId),
	);

/** A mistake the node catches before anything is posted: what makes it, the error, and the fix. */
interface Mistake {
	make(f: PhonovationFixture, log: QuestionLog): INodeParameters;
	error: RegExp;
	fix(f: PhonovationFixture, log: QuestionLog): void;
}

const MISTAKES: Array<[string, Mistake]> = [
	[
		'an unreadable To',
		{
			make: () => ({ recipients: 'call me' }),
			error: /^To: "call me" is not a phone number/,
			fix: () => {},
		},
	],
	[
		'no Question Log chosen',
		{
			make: () => ({ questionLog: '={{ "" }}' }),
			error: /^Question Log: choose the workflow that records questions/,
			fix: () => {},
		},
	],
	[
		'a Question Log that fails (its Data Table is missing)',
		{
			make: (_f, log) => ((log.fail = new Error('Could not find data table "questions"')), {}),
			error: /^Question Log: the workflow question-log failed/,
			fix: (_f, log) => (log.fail = null),
		},
	],
	[
		'a credential without a Relay Secret',
		{
			make: (f) => {
				f.engine.credentials.set('cred-1', {
					...simulatorCredentialData(f.sim),
					accessToken: '',
					relaySecret: '',
				});
				return {};
			},
			error: /^Credential: set a Relay Secret/,
			fix: (f) =>
				f.engine.credentials.set('cred-1', { ...simulatorCredentialData(f.sim), accessToken: '' }),
		},
	],
];

/**
 * A Retry of a failed execution (Executions → Retry) hands this node the record its failed run
 * left. A run that stopped on a mistake before posting leaves one that says nothing was sent, so
 * the Retry after the fix texts once; a run that may have sent is never posted again.
 */
describe.each([
	['Send and Wait for Reply', ASK],
	['Send and Wait for Delivery', REMIND],
])('%s: a Retry of the execution', (_operation, params) => {
	const fixture = sharedFixture();
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});
	beforeEach(() => log.clear());

	it.each(MISTAKES)(
		'after %s: nothing is posted; the Retry with it fixed posts once, asked from the Retry',
		async (_name, mistake) => {
			const f = fixture();
			const failed = await f.run({ ...params, ...mistake.make(f, log) }, [{ json: {} }]);
			expect(failed.error?.message).toMatch(mistake.error);
			expect(failed.error?.context?.itemIndex).toBe(0);
			expect(f.sim.count('POST', CAMPAIGN)).toBe(0);

			mistake.fix(f, log);
			const askedFrom = Date.now();
			const retried = await f.run(params, [{ json: {} }], RETRY_ON_FAIL, retryOf(failed));
			expect(retried.error).toBeUndefined();
			expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
			expect(f.sim.campaigns[0].body.recipientInfo[0].msisdn).toBe('353871234567');
			// Nothing went before, so the question is the Retry's own: its Notify ID, its time, its resume URL.
			const [reference] = postedRefs(f);
			expect(reference).toMatch(new RegExp(`^${RETRY_ID}\\.0\\.`));
			const row = log.rows.get(reference)!;
			expect(row.resumeUrl).toMatch(new RegExp(`/webhook-waiting/${RETRY_ID}/`));
			expect(Date.parse(String(row.askedAt))).toBeGreaterThanOrEqual(askedFrom - 1000);
			expect(retried.outputs[0][0].json).toMatchObject({ notifyId: reference });
		},
	);

	it('a mistake still there on the Retry is named again, not refused; the Retry of that Retry, fixed, posts once', async () => {
		const f = fixture();
		const broken = { ...params, recipients: 'call me' };
		const failed = await f.run(broken, [{ json: {} }]);
		const again = await f.run(broken, [{ json: {} }], RETRY_ON_FAIL, retryOf(failed));
		expect(again.error?.message).toMatch(/^To: "call me" is not a phone number/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
		const fixed = await f.run(params, [{ json: {} }], {}, retryOf(again, 'retry-2'));
		expect(fixed.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
	});

	it('after a text processed, then answered 500: the Retry posts nothing more and waits for the text that went', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 500, body: 'Internal Server Error' });
		const first = await f.run(params, [{ json: {} }]);
		expect(first.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		const [reference] = postedRefs(f);

		const retried = await f.run(params, [{ json: {} }], RETRY_ON_FAIL, retryOf(first));
		expect(retried.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		// The reference the person may have is kept, and the log now points it at the Retry.
		expect(retried.outputs[0][0].json).toMatchObject({
			notifyId: reference,
			sent: expect.objectContaining({ status: 'unconfirmed' }),
		});
		const resumeUrl = String(log.rows.get(reference)?.resumeUrl);
		expect(resumeUrl).toMatch(new RegExp(`/webhook-waiting/${RETRY_ID}/`));
		// The Notify ID names the first execution, the row the Retry's: the Relay Secret vouches for
		// the pair, so Deliver Reply and Deliver Receipt reach the run that now waits.
		const base = `${new URL(resumeUrl).origin}/webhook-waiting/`;
		const secret = f.sim.config.relaySecret;
		const row = { reference, phone: String(log.rows.get(reference)?.phone), resumeUrl };
		expect(readResumeUrl(row, base, secret)).toMatchObject({ target: { executionId: RETRY_ID } });
		expect(readResumeUrl(row, base, 'another secret')).toHaveProperty('unusable');
	});

	it('after a text processed, then answered 500: a Retry with To changed asks no one, and says why', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 500, body: 'Internal Server Error' });
		const first = await f.run(params, [{ json: {} }]);
		expect(first.error).toBeUndefined();
		const changed = { ...params, recipients: '0871234999' };
		const retried = await f.run(changed, [{ json: {} }], RETRY_ON_FAIL, retryOf(first));
		expect(retried.error?.message).toMatch(
			/^To: this run's question may already have gone out \(its outcome is unknown\) to another number than 353871234999/,
		);
		expect(retried.error?.description).toBe('Nothing was sent.');
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
	});

	it('with no record of this node (stopped or crashed while it ran): nothing is posted, even with a To that reads', async () => {
		const f = fixture();
		const result = await f.run(params, [{ json: {} }], RETRY_ON_FAIL, {
			mode: 'retry',
			executionId: RETRY_ID,
		});
		expect(result.error?.message).toMatch(
			/^Nothing was sent: this is a Retry of an execution, and this node has no record of this run/,
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
		expect(log.calls).toEqual([]);
	});
});
