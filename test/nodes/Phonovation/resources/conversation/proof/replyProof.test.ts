import {
	provenReply,
	replyProof,
	type DeliveredReply,
} from '../../../../../../nodes/Phonovation/resources/conversation/proof/replyProof';

const SECRET = 'a-long-random-relay-secret-0123456789';
const REPLY: DeliveredReply = {
	from: '353871234567',
	text: 'Yes!',
	receivedAt: '2030-06-01T10:00:00Z',
	optedOut: false,
	notifyId: '4211.abcdefghijklmnop',
};

const QUESTION = { executionId: '4211', reference: '4211.0.abcdefghijkl' };

describe('the proof a delivered reply carries to the waiting run', () => {
	it('holds for the question it was made for, with every field as signed', () => {
		const proof = replyProof(QUESTION, REPLY, SECRET);
		expect(provenReply({ ...REPLY, proof }, QUESTION, SECRET)).toEqual(REPLY);
	});

	it.each<[string, Record<string, unknown>, typeof QUESTION, string]>([
		['another execution', {}, { ...QUESTION, executionId: '4212' }, SECRET],
		// The same node asking again in a loop waits at the same URL.
		['another question of the run', {}, { ...QUESTION, reference: '4211.1.abcdefghijkl' }, SECRET],
		['another secret', {}, QUESTION, 'another-secret'],
		['a changed text', { text: 'No' }, QUESTION, SECRET],
		['a changed number', { from: '353871234568' }, QUESTION, SECRET],
		['opted out flipped', { optedOut: true }, QUESTION, SECRET],
		['no secret', {}, QUESTION, ''],
	])('fails for %s', (_case, change, target, secret) => {
		const proof = replyProof(QUESTION, REPLY, SECRET);
		expect(provenReply({ ...REPLY, proof, ...change }, target, secret)).toBeNull();
	});

	it.each([
		null,
		'text',
		{},
		{ ...REPLY },
		{ ...REPLY, proof: 'short' },
		{ ...REPLY, optedOut: 'false', proof: 'x'.repeat(64) },
	])('refuses a body that is not a proven reply: %j', (body) => {
		expect(provenReply(body, QUESTION, SECRET)).toBeNull();
	});
});
