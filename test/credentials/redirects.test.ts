import dns from 'node:dns';

import { PhonovationApi } from '../../credentials/PhonovationApi.credentials';
import { Phonovation } from '../../nodes/Phonovation/Phonovation.node';
import { nodeUsingCredential } from '../harness/credential-node';
import { CredentialTestNode } from '../harness/credential-test-node';
import { Engine } from '../harness/engine';
import { LoopbackServer, sendJson } from '../harness/loopback';

const USERNAME = 'acme';
/** Distinctive, so any trace of it anywhere is found. */
const PASSWORD = 'pw-Redirect-Secret-4417';
const NODE_TYPE = 'n8n-nodes-phonovation.phonovation';

const usingCredential = (type: string) =>
	nodeUsingCredential(type, 'cred-1', { resource: 'sender', operation: 'getAll' });

/**
 * Two servers on loopback, so two origins (same host, other port): `origin` is the one the
 * credential names; `elsewhere` is where its redirects point, and records everything it gets.
 */
describe('redirects never carry a secret to another origin (real n8n-core engine, real HTTP)', () => {
	let redirectStatus: number;
	/** Paths of `origin` that answer with a redirect to the same path on `elsewhere`. */
	let redirected: Set<string>;
	let elsewhereUrl: string;
	let issued = 0;
	const origin = new LoopbackServer((req, res) => {
		if (redirected.has(req.path)) {
			res.writeHead(redirectStatus, { Location: `${elsewhereUrl}${req.path}` });
			return void res.end();
		}
		if (req.method === 'POST' && req.path === '/token') {
			issued++;
			return sendJson(res, 200, {
				access_token: `tok${issued}`,
				expires_in: 120,
				token_type: 'Bearer',
			});
		}
		if (req.method === 'GET' && req.path === '/api/v2/senderlist')
			return sendJson(res, 200, [{ name: 'Acme', type: 0 }]);
		sendJson(res, 404, {});
	});
	// Answers as the real API would to a request without a valid token.
	const elsewhere = new LoopbackServer((_req, res) =>
		sendJson(res, 401, { message: 'Unauthorized' }),
	);
	let originUrl: string;
	let engine: Engine;
	const credential = new PhonovationApi();

	beforeAll(async () => {
		originUrl = await origin.start();
		elsewhereUrl = await elsewhere.start();
	});
	afterAll(async () => {
		await origin.stop();
		await elsewhere.stop();
	});
	beforeEach(() => {
		origin.requests.length = 0;
		elsewhere.requests.length = 0;
		redirected = new Set();
		redirectStatus = 307;
		issued = 0;
		engine = new Engine({
			nodeTypes: {
				[NODE_TYPE]: new Phonovation(),
				credentialTest: new CredentialTestNode(credential),
			},
			credentialTypes: [credential],
		});
		engine.credentials.set('cred-1', {
			username: USERNAME,
			password: PASSWORD,
			authUrl: originUrl,
			baseUrl: originUrl,
			legacyBaseUrl: `${originUrl}/api/v1`,
			accessToken: '',
		});
	});

	describe('the login (token request)', () => {
		it.each([301, 302, 303, 307, 308])(
			'a token server answering %i fails the login naming the status; the redirect target receives nothing',
			async (status) => {
				redirectStatus = status;
				redirected.add('/token');
				const result = await engine.runNode(usingCredential(NODE_TYPE), [{ json: {} }]);
				expect(result.error?.message).toBe(
					`Phonovation's token server at ${originUrl}/token answered HTTP ${status} (a redirect). Logins never follow redirects, so the password is not sent anywhere else. Check the credential's Auth URL.`,
				);
				expect(elsewhere.requests).toEqual([]);
				expect(origin.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /token']);
				// Neither the password nor where the redirect pointed shows in the error.
				const shown = JSON.stringify(result.error) + String(result.error?.description);
				expect(shown).not.toContain(PASSWORD);
				expect(shown).not.toContain(elsewhereUrl);
			},
		);

		it("the credential's Test button fails the same way and sends nothing to the redirect target", async () => {
			redirected.add('/token');
			const result = await engine.runNode(usingCredential('credentialTest'), [{ json: {} }]);
			expect(result.error?.message).toMatch(
				/^Phonovation's token server at .* answered HTTP 307 \(a redirect\)\./,
			);
			expect(elsewhere.requests).toEqual([]);
		});
	});

	describe('authenticated API requests (Bearer token)', () => {
		const REDIRECT_DESCRIPTION =
			"The answer was a redirect, which is never followed, so the access token and the request went nowhere else; check the credential's Base URL.";

		it('a sender list redirected to another port: that origin receives nothing, and the error names HTTP 307', async () => {
			redirected.add('/api/v2/senderlist');
			const result = await engine.runNode(usingCredential(NODE_TYPE), [{ json: {} }]);
			expect(result.error?.message).toBe(
				'Phonovation answered HTTP 307 (a redirect) to the sender list request',
			);
			expect(result.error?.description).toBe(REDIRECT_DESCRIPTION);
			expect(elsewhere.requests).toEqual([]);
			// The token went to the credential's own origin only, once: a redirect is no reason to log in again.
			expect(
				origin.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization ?? '-'}`),
			).toEqual(['POST /token -', 'GET /api/v2/senderlist Bearer tok1']);
		});

		it('a campaign redirected to another port: neither the token nor the numbers and text reach that origin', async () => {
			redirected.add('/api/v2/Campaign');
			const result = await engine.runNode(
				{
					...usingCredential(NODE_TYPE),
					parameters: {
						resource: 'campaign',
						operation: 'send',
						from: 'Acme',
						recipients: '0871234567',
						text: 'Hello',
					},
				},
				[{ json: {} }],
			);
			expect(result.error?.message).toBe(
				'Phonovation answered HTTP 307 (a redirect) to the campaign',
			);
			expect(result.error?.description).toBe(REDIRECT_DESCRIPTION);
			expect(elsewhere.requests).toEqual([]);
			expect(origin.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
				'POST /token',
				'GET /api/v2/senderlist',
				'POST /api/v2/Campaign',
			]);
		});

		it("the credential's Test button, redirected to another port, sends that origin nothing", async () => {
			redirected.add('/api/v2/senderlist');
			const result = await engine.runNode(usingCredential('credentialTest'), [{ json: {} }]);
			expect(result.error?.message).toMatch(/\b307\b/);
			expect(
				origin.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization ?? '-'}`),
			).toEqual(['POST /token -', 'GET /api/v2/senderlist Bearer tok1']);
			expect(elsewhere.requests).toEqual([]);
		});
	});
});

/**
 * follow-redirects strips Authorization when the host or port changes, but keeps it for a subdomain
 * of the current host on the same port, and n8n's sendCredentialsOnCrossOriginRedirect: false only
 * stops n8n from putting it back. So a token would reach `evil.localhost` after a redirect from
 * `localhost`. Not following redirects at all is what keeps it home.
 */
describe('a redirect to a subdomain on the same port (which follow-redirects alone would send the token to)', () => {
	let port = '';
	const server = new LoopbackServer((req, res) => {
		if (req.path === '/token')
			return sendJson(res, 200, { access_token: 'tok-sub', expires_in: 120 });
		if (req.headers.host === `localhost:${port}`) {
			res.writeHead(307, { Location: `http://evil.localhost:${port}${req.path}` });
			return void res.end();
		}
		sendJson(res, 200, [{ name: 'Evil', type: 0 }]);
	});
	let lookup: jest.SpyInstance;

	beforeAll(async () => {
		port = new URL(await server.start()).port;
		// *.localhost resolves to loopback by RFC 6761, but not with every resolver: make it so here.
		const real = dns.lookup.bind(dns) as (...args: unknown[]) => void;
		lookup = jest
			.spyOn(dns, 'lookup')
			.mockImplementation(((host: string, ...rest: unknown[]) =>
				real(
					host.endsWith('.localhost') ? '127.0.0.1' : host,
					...rest,
				)) as unknown as typeof dns.lookup);
	});
	afterAll(async () => {
		lookup.mockRestore();
		await server.stop();
	});

	it('the sender list fails naming HTTP 307, and evil.localhost receives nothing', async () => {
		const credential = new PhonovationApi();
		const engine = new Engine({
			nodeTypes: { [NODE_TYPE]: new Phonovation() },
			credentialTypes: [credential],
		});
		const local = `http://localhost:${port}`;
		engine.credentials.set('cred-1', {
			username: USERNAME,
			password: PASSWORD,
			authUrl: local,
			baseUrl: local,
			accessToken: '',
		});
		const result = await engine.runNode(usingCredential(NODE_TYPE), [{ json: {} }]);
		expect(result.error?.message).toBe(
			'Phonovation answered HTTP 307 (a redirect) to the sender list request',
		);
		expect(
			server.requests.map(
				(r) => `${r.method} ${r.headers.host} ${r.path} ${r.headers.authorization ?? '-'}`,
			),
		).toEqual([
			`POST localhost:${port} /token -`,
			`GET localhost:${port} /api/v2/senderlist Bearer tok-sub`,
		]);
	});
});
