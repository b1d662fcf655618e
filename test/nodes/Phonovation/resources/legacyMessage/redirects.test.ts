import { LoopbackServer } from '../../../../harness/loopback';
import { phonovationFixture, type PhonovationFixture } from '../../fixture';

/** Distinctive, so any trace of it anywhere is found. */
const PASSWORD = 'Legacy-Redirect-Secret-3381';
const LEGACY = {
	resource: 'legacyMessage',
	operation: 'send',
	from: 'Acme',
	to: '0871234567',
	text: 'Hello',
};

/**
 * The legacy API takes the username and password in its form body, so a followed 307 or 308 would
 * post them to wherever Location points. The legacy Base URL here answers every request with a
 * redirect to a second loopback server on another port, which records what reaches it.
 */
describe('legacyMessage.send never follows a redirect', () => {
	let f: PhonovationFixture;
	let status = 307;
	let targetUrl = '';
	const target = new LoopbackServer((_req, res) => {
		res.writeHead(200, { 'Content-Type': 'text/plain' });
		res.end('0\nRequest deferred successfully');
	});
	const redirecting = new LoopbackServer((req, res) => {
		res.writeHead(status, { Location: `${targetUrl}${req.path}` });
		res.end();
	});
	let legacyUrl = '';

	beforeAll(async () => {
		f = await phonovationFixture({ senders: [{ name: 'Acme', type: 0 }], password: PASSWORD });
		targetUrl = await target.start();
		legacyUrl = `${await redirecting.start()}/api/v1`;
	});
	beforeEach(() => {
		f.reset();
		f.engine.credentials.set('cred-1', {
			...f.engine.credentials.stored('cred-1'),
			legacyBaseUrl: legacyUrl,
		});
		target.requests.length = 0;
		redirecting.requests.length = 0;
	});
	afterAll(async () => {
		await f.stop();
		await target.stop();
		await redirecting.stop();
	});

	it.each([301, 302, 303, 307, 308])(
		'a %i fails the item naming the status; the redirect target receives nothing',
		async (answer) => {
			status = answer;
			const result = await f.run(LEGACY);
			expect(result.error?.message).toBe(
				`Phonovation's legacy API at ${legacyUrl}/sendmessage.aspx answered HTTP ${answer} (a redirect). The legacy send never follows redirects, so the password is not sent anywhere else. Check the credential's Legacy Base URL.`,
			);
			expect(result.error?.description).toBe(
				'Whether the server that answered with the redirect acted on the message is unknown: check before sending it again.',
			);
			expect(target.requests).toEqual([]);
			expect(redirecting.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
				'POST /api/v1/sendmessage.aspx',
			]);
			const shown = JSON.stringify(result.error) + String(result.error?.description);
			expect(shown).not.toContain(PASSWORD);
			expect(shown).not.toContain(targetUrl);
		},
	);

	it('with Continue On Fail the item becomes an error item, and still nothing reaches the redirect target', async () => {
		status = 307;
		const result = await f.run(LEGACY, [{ json: {} }], { onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.error)).toEqual([
			expect.stringMatching(/answered HTTP 307 \(a redirect\)/),
		]);
		expect(target.requests).toEqual([]);
	});
});
