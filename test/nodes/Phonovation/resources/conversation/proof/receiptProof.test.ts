import {
	type DeliveredReceipt,
	provenReceipt,
	receiptProof,
} from '../../../../../../nodes/Phonovation/resources/conversation/proof/receiptProof';
import { replyProof } from '../../../../../../nodes/Phonovation/resources/conversation/proof/replyProof';

const SECRET = 'relay-secret';
const TARGET = { executionId: '42', reference: '42.0.abcdefghijkl' };
const RECEIPT: DeliveredReceipt = {
	notifyId: '42.0.abcdefghijkl',
	outcome: 'failed',
	source: 'deliveryReceipt',
	reason: null,
	parts: { toSend: 2, sent: 1, failed: 1 },
	receivedAt: '2026-11-27T09:00:00.000Z',
};
const body = (receipt: DeliveredReceipt = RECEIPT) => ({
	...receipt,
	proof: receiptProof(TARGET, receipt, SECRET),
});

describe('receiptProof: only Deliver Receipt, holding the Relay Secret, can resume a run waiting for delivery', () => {
	it('a receipt with its proof, for this run and text, is taken as it was sent', () => {
		expect(provenReceipt(body(), TARGET, SECRET)).toEqual(RECEIPT);
	});

	it.each<[string, Record<string, unknown>]>([
		['failed turned into delivered', { outcome: 'delivered' }],
		['another Notify ID', { notifyId: '42.0.zzzzzzzzzzzz' }],
		['other part counts', { parts: { toSend: 2, sent: 2, failed: 0 } }],
		['a reason added', { reason: 'made up' }],
		['another time', { receivedAt: '2026-11-28T09:00:00.000Z' }],
	])('%s after signing: refused', (_case, change) => {
		expect(provenReceipt({ ...body(), ...change }, TARGET, SECRET)).toBeNull();
	});

	it('refused for another run, another text of the run, or under another secret', () => {
		expect(provenReceipt(body(), { ...TARGET, executionId: '43' }, SECRET)).toBeNull();
		expect(provenReceipt(body(), { ...TARGET, reference: '42.1.abcdefghijkl' }, SECRET)).toBeNull();
		expect(provenReceipt(body(), TARGET, 'another-secret')).toBeNull();
		expect(provenReceipt(body(), TARGET, '')).toBeNull();
	});

	it("a reply's proof never passes for a receipt", () => {
		const reply = {
			from: '+353871234567',
			text: 'YES',
			receivedAt: null,
			optedOut: false,
			notifyId: null,
		};
		expect(
			provenReceipt({ ...RECEIPT, proof: replyProof(TARGET, reply, SECRET) }, TARGET, SECRET),
		).toBeNull();
	});

	it.each<[string, unknown]>([
		['no body', undefined],
		['text', 'outcome=delivered'],
		['an outcome it does not know', { ...body(), outcome: 'read' }],
		[
			'a count that is not a whole number',
			{ ...body(), parts: { toSend: 1.5, sent: 1, failed: 0 } },
		],
		['no proof', { ...RECEIPT }],
	])('%s: refused', (_case, given) => {
		expect(provenReceipt(given, TARGET, SECRET)).toBeNull();
	});
});
