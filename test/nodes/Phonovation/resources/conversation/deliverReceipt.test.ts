import type { IDataObject } from 'n8n-workflow';

import { provenReceipt } from '../../../../../nodes/Phonovation/resources/conversation/proof/receiptProof';
import { QUESTION_LOG, QuestionLog } from '../../../../harness/question-log';
import {
	type Answer,
	referenceOf,
	useWaitingRuns,
	waitingQuestion,
} from '../../../../harness/waiting-runs';
import { sharedFixture } from '../../fixture';

const PHONE = '353871234567';
const RESUMED: Answer = { status: 200, body: { resumed: true, answer: 'delivered' } };
const FINISHED: Answer = { status: 200, body: '<html>No action required</html>' };
const RUNNING: Answer = {
	status: 409,
	body: { message: 'The execution "41" is running already.' },
};

const receiptItem = (notifyId: string, delivered = true, extra: IDataObject = {}): IDataObject => ({
	event: 'deliveryReceipt',
	notifyId,
	delivered,
	verified: true,
	unverified: {
		to: PHONE,
		from: 'Phonovation',
		totalToSend: 1,
		totalSent: delivered ? 1 : 0,
		totalFailed: delivered ? 0 : 1,
		receivedAt: '2026-11-27T09:00:00.000Z',
	},
	...extra,
});

const processingResult = (notifyId: string, status: string): IDataObject => ({
	event: 'processingResult',
	status,
	message: status === 'MESSAGE_ERROR' ? 'null/empty MSISDN' : 'Your message has been queued.',
	notifyId,
	finishedAt: '2026-11-27T09:00:00.000Z',
});

describe('Deliver Receipt: a verified receipt reaches the run waiting for that text, and only it', () => {
	const fixture = sharedFixture();
	const runs = useWaitingRuns(() => fixture().engine);
	let log: QuestionLog;
	beforeAll(() => {
		log = new QuestionLog(fixture().engine);
	});
	beforeEach(() => log.clear());

	/** A text in the log waiting for its receipt (or, `waitsFor: undefined`, a question waiting for a reply). */
	function waiting(executionId: string, answer: Answer[], row: IDataObject = {}) {
		return waitingQuestion(log, runs, {
			executionId,
			phone: PHONE,
			secret: fixture().sim.config.relaySecret,
			answers: answer,
			row: { waitsFor: 'receipt', ...row },
		});
	}

	const deliver = async (item: IDataObject) =>
		await fixture().run(
			{ resource: 'conversation', operation: 'deliverReceipt', questionLog: QUESTION_LOG },
			[{ json: item }],
		);

	it('posts the receipt with a proof that holds for that run and text, and says it resumed it', async () => {
		const reference = waiting('41', [RESUMED]);
		waiting('42', [RESUMED]);
		const result = await deliver(receiptItem(reference, false));
		expect(runs.posts.map((p) => p.executionId)).toEqual(['41']);
		const secret = fixture().sim.config.relaySecret;
		expect(provenReceipt(runs.posts[0].body, { executionId: '41', reference }, secret)).toEqual({
			notifyId: reference,
			outcome: 'failed',
			source: 'deliveryReceipt',
			reason: null,
			parts: { toSend: 1, sent: 0, failed: 1 },
			receivedAt: '2026-11-27T09:00:00.000Z',
		});
		// The proof is for run 41 only.
		expect(provenReceipt(runs.posts[0].body, { executionId: '42', reference }, secret)).toBeNull();
		expect(result.items[0].json).toMatchObject({
			event: 'deliveryReceipt',
			resumed: true,
			delivery: 'failed',
			text: { reference, executionId: '41' },
		});
	});

	it('receipts of campaigns (a Notify ID not of this node) never call the Question Log', async () => {
		waiting('41', [RESUMED]);
		const result = await deliver(receiptItem('order-2026-0042'));
		expect(result.items[0].json).toMatchObject({
			resumed: false,
			reason: 'no run is waiting for this text',
		});
		expect(log.calls).toEqual([]);
		expect(runs.posts).toEqual([]);
	});

	it.each<[string, IDataObject, string]>([
		[
			'an unverified delivery receipt',
			receiptItem('41.0.abcdefghijkl', true, { verified: false }),
			'the receipt was not verified by the Phonovation Trigger',
		],
		[
			'a delivery receipt without verified (not from the trigger)',
			receiptItem('41.0.abcdefghijkl', true, { verified: undefined }),
			'the receipt was not verified by the Phonovation Trigger',
		],
		[
			'a processing result that queued the text (its receipt follows)',
			processingResult('41.0.abcdefghijkl', 'MESSAGE_SUCCESS'),
			'a processing result "MESSAGE_SUCCESS" is not final',
		],
		[
			'a processing result refusing the whole campaign (no Notify ID)',
			processingResult('', 'CAMPAIGN_ERROR'),
			'a processing result "CAMPAIGN_ERROR" is not final',
		],
	])('%s changes nothing', async (_case, item, reason) => {
		waiting('41', [RESUMED]);
		const result = await deliver(item);
		expect(result.items[0].json).toMatchObject({ resumed: false, reason });
		expect(runs.posts).toEqual([]);
	});

	it("a processing result refusing the number resolves the run as failed, with the provider's message", async () => {
		const reference = waiting('41', [RESUMED]);
		const result = await deliver(processingResult(reference, 'MESSAGE_ERROR'));
		expect(runs.posts[0].body).toMatchObject({
			outcome: 'failed',
			source: 'processingResult',
			reason: 'null/empty MSISDN',
		});
		expect(result.items[0].json).toMatchObject({ resumed: true, delivery: 'failed' });
	});

	it('never posts to a question waiting for a reply, nor to a URL of another n8n', async () => {
		const question = waiting('41', [RESUMED], { waitsFor: '' });
		const elsewhere = waiting('42', [RESUMED], {
			resumeUrl: `https://attacker.example/webhook-waiting/42/node?signature=${'ab'.repeat(32)}`,
		});
		for (const reference of [question, elsewhere]) {
			const result = await deliver(receiptItem(reference));
			expect(result.items[0].json).toMatchObject({
				resumed: false,
				reason: 'no run is waiting for this text',
			});
		}
		expect(runs.posts).toEqual([]);
	});

	it('a run still running is tried again until it has paused; a second receipt finds nothing waiting', async () => {
		const reference = waiting('41', [RUNNING, RESUMED, FINISHED]);
		const first = await deliver(receiptItem(reference));
		expect(first.items[0].json).toMatchObject({ resumed: true, delivery: 'delivered' });
		const second = await deliver(receiptItem(reference, false));
		expect(second.items[0].json).toMatchObject({
			resumed: false,
			reason: 'no run is waiting for this text any more',
		});
		expect(runs.posts).toHaveLength(3);
	});

	it('an item that is no receipt is an error naming the field and the item', async () => {
		const result = await deliver({ event: 'inbound', verified: true, from: PHONE, text: 'YES' });
		expect(result.error?.message).toMatch(
			/^Receipt: item 0 is not a Phonovation Trigger Delivery Receipt or Processing Result item \(event "inbound"\)/,
		);
		expect(runs.posts).toEqual([]);
	});
});
