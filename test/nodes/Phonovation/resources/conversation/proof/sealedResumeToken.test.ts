import {
	openToken,
	sealedOf,
	sealedResumeUrl,
	sealToken,
} from '../../../../../../nodes/Phonovation/resources/conversation/proof/sealedResumeToken';

const SECRET = 'relay-secret-of-the-account';
const TOKEN = 'a3'.repeat(32);
const RUN_URL = `https://n8n.example.com/webhook-waiting/812?signature=${TOKEN}`;

describe('the run token of a wait for delivery, sealed under the Relay Secret', () => {
	it('the recorded URL names the node and carries no run token, only its sealed form', () => {
		const url = new URL(sealedResumeUrl(RUN_URL, 'node-7', SECRET));
		expect(url.origin + url.pathname).toBe('https://n8n.example.com/webhook-waiting/812/node-7');
		expect([...url.searchParams.keys()]).toEqual(['sealed']);
		expect(url.toString()).not.toContain(TOKEN);
		expect(openToken(sealedOf(url)!, { executionId: '812', nodeId: 'node-7' }, SECRET)).toBe(TOKEN);
	});

	it('opens only with the same secret, for the same execution and node', () => {
		const sealed = sealToken(TOKEN, { executionId: '812', nodeId: 'node-7' }, SECRET);
		expect(
			openToken(sealed, { executionId: '812', nodeId: 'node-7' }, 'another secret'),
		).toBeUndefined();
		expect(openToken(sealed, { executionId: '813', nodeId: 'node-7' }, SECRET)).toBeUndefined();
		expect(openToken(sealed, { executionId: '812', nodeId: 'node-8' }, SECRET)).toBeUndefined();
	});

	it('a sealed token altered by one character, cut short or made up opens nothing', () => {
		const target = { executionId: '812', nodeId: 'node-7' };
		const sealed = sealToken(TOKEN, target, SECRET);
		const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
		for (const forged of [flipped, sealed.slice(0, 30), '', 'x'.repeat(2000), TOKEN]) {
			expect(openToken(forged, target, SECRET)).toBeUndefined();
		}
	});

	it('seals the same token differently each time (a fresh nonce)', () => {
		const target = { executionId: '812', nodeId: 'node-7' };
		expect(sealToken(TOKEN, target, SECRET)).not.toBe(sealToken(TOKEN, target, SECRET));
	});
});
