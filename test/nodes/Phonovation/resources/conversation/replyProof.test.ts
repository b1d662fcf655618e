import {
	provenReply,
	replyProof,
	resumeTarget,
	type DeliveredReply,
} from '../../../../../nodes/Phonovation/resources/conversation/replyProof';

const SECRET = 'a-long-random-relay-secret-0123456789';
const REPLY: DeliveredReply = {
	from: '353871234567',
	text: 'Yes!',
	receivedAt: '2030-06-01T10:00:00Z',
	optedOut: false,
	notifyId: '4211.abcdefghijklmnop',
};

describe('the proof a delivered reply carries to the waiting run', () => {
	it('holds for the execution it was made for, with every field as signed', () => {
		const proof = replyProof('4211', REPLY, SECRET);
		expect(provenReply({ ...REPLY, proof }, '4211', SECRET)).toEqual(REPLY);
	});

	it.each<[string, Record<string, unknown>, string, string]>([
		['another execution', {}, '4212', SECRET],
		['another secret', {}, '4211', 'another-secret'],
		['a changed text', { text: 'No' }, '4211', SECRET],
		['a changed number', { from: '353871234568' }, '4211', SECRET],
		['opted out flipped', { optedOut: true }, '4211', SECRET],
		['no secret', {}, '4211', ''],
	])('fails for %s', (_case, change, executionId, secret) => {
		const proof = replyProof('4211', REPLY, SECRET);
		expect(provenReply({ ...REPLY, proof, ...change }, executionId, secret)).toBeNull();
	});

	it.each([
		null,
		'text',
		{},
		{ ...REPLY },
		{ ...REPLY, proof: 'short' },
		{ ...REPLY, optedOut: 'false', proof: 'x'.repeat(64) },
	])('refuses a body that is not a proven reply: %j', (body) => {
		expect(provenReply(body, '4211', SECRET)).toBeNull();
	});

	const SIGNATURE = 'ab'.repeat(32);

	it("reads the execution and the asking node from the node's signed resume URL", () => {
		expect(
			resumeTarget(`http://127.0.0.1:5678/webhook-waiting/4211/node-1?signature=${SIGNATURE}`),
		).toEqual({ executionId: '4211', nodeId: 'node-1' });
		expect(
			resumeTarget(`https://n8n.example.com/base/webhook-waiting/98/a%20b?signature=${SIGNATURE}`),
		).toEqual({ executionId: '98', nodeId: 'a b' });
	});

	it.each([
		'not a url',
		// The run's own resume URL: it would wake whatever node of the run waits.
		`http://127.0.0.1:5678/webhook-waiting/4211?signature=${SIGNATURE}`,
		'http://127.0.0.1:5678/webhook-waiting/4211/node-1',
		'http://127.0.0.1:5678/webhook-waiting/4211/node-1?signature=abc',
		`ftp://127.0.0.1/webhook-waiting/4211/node-1?signature=${SIGNATURE}`,
	])("refuses a URL that is not a question node's own resume URL: %s", (url) => {
		expect(resumeTarget(url)).toBeNull();
	});
});
