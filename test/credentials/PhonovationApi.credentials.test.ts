import { PhonovationApi } from '../../credentials/PhonovationApi.credentials';
import { nodeUsingCredential } from '../harness/credential-node';
import { Engine } from '../harness/engine';
import { LoopbackServer, sendJson } from '../harness/loopback';
import { CredentialTestNode } from '../harness/credential-test-node';
import { AuthProbe } from '../harness/probe-node';
import { phonovationFixture, type PhonovationFixture } from '../nodes/Phonovation/fixture';
import { simulatorCredentialData } from '../simulator';

const USERNAME = 'acme';
const PASSWORD = 'pw-Distinctive-7731';

/** A token server and sender-list endpoint that accept only the newest token issued. */
function standIn() {
	let issued = 0;
	const server = new LoopbackServer((req, res) => {
		if (req.method === 'POST' && req.path === '/token') {
			const form = new URLSearchParams(req.body);
			if (form.get('grant_type') !== 'password' || form.get('client_id') !== 'ismstoken') {
				return sendJson(res, 400, { error: 'unauthorized_client' });
			}
			if (form.get('username') !== USERNAME || form.get('password') !== PASSWORD) {
				return sendJson(res, 401, {
					error: 'invalid_grant',
					error_description: 'Invalid user credentials',
				});
			}
			issued++;
			return sendJson(res, 200, {
				access_token: `tok${issued}`,
				expires_in: 120,
				token_type: 'Bearer',
			});
		}
		if (req.method === 'GET' && req.path === '/api/v2/senderlist') {
			if (req.headers.authorization !== `Bearer tok${issued}`) {
				return sendJson(res, 401, {
					success: false,
					message: 'Unauthorized',
					errors: ['401 Unauthorized'],
				});
			}
			return sendJson(res, 200, [{ name: 'Acme', type: 0 }]);
		}
		sendJson(res, 404, {});
	});
	return server;
}

describe('PhonovationApi credential', () => {
	const credential = new PhonovationApi();

	it('shows the form a user fills in: labels, what is required, defaults and masked fields', () => {
		const form = credential.properties
			.filter((p) => p.type !== 'hidden')
			.map((p) => [
				p.displayName,
				p.required === true,
				p.default,
				p.typeOptions?.password === true,
			]);
		// The provider's documented hosts (docs/provider-api.md#hosts-and-versions) are the defaults.
		expect(form).toEqual([
			['Username', true, '', false],
			['Password', true, '', true],
			['Relay Secret', false, '', true],
			['URL Token', false, '', true],
			['API ID', false, '', false],
			['Auth URL', false, 'https://auth.interactsms.com', false],
			['Base URL', false, 'https://api.interactsms.com', false],
			['Legacy Base URL', false, 'https://secure.interactsms.com/api/v1', false],
		]);
		expect(credential.displayName).toBe('Phonovation API');
	});

	describe('in the real n8n-core engine', () => {
		let server: LoopbackServer;
		let baseUrl: string;
		let engine: Engine;
		const node = nodeUsingCredential('authProbe', 'cred-1');

		beforeEach(async () => {
			server = standIn();
			baseUrl = await server.start();
			engine = new Engine({
				nodeTypes: { authProbe: new AuthProbe() },
				credentialTypes: [credential],
			});
		});
		afterEach(async () => server.stop());

		const store = (extra: Record<string, string> = {}) =>
			engine.credentials.set('cred-1', {
				username: USERNAME,
				password: PASSWORD,
				authUrl: baseUrl,
				baseUrl,
				accessToken: '',
				...extra,
			});

		it('logs in when the stored token is empty, then calls with the new Bearer token', async () => {
			store();
			const result = await engine.runNode(node, [{ json: {} }]);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.senders).toEqual([{ name: 'Acme', type: 0 }]);
			expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
				'POST /token',
				'GET /api/v2/senderlist',
			]);
			const login = new URLSearchParams(server.requests[0].body);
			expect(Object.fromEntries(login)).toEqual({
				grant_type: 'password',
				client_id: 'ismstoken',
				username: USERNAME,
				password: PASSWORD,
			});
			expect(server.requests[0].headers['content-type']).toContain(
				'application/x-www-form-urlencoded',
			);
			expect(server.requests[1].headers.authorization).toBe('Bearer tok1');
			expect(engine.credentials.stored('cred-1').accessToken).toBe('tok1');
		});

		it('on a stale token: 401, one re-login, one retry that succeeds', async () => {
			store({ accessToken: 'stale-token' });
			const result = await engine.runNode(node, [{ json: {} }]);
			expect(result.error).toBeUndefined();
			expect(
				server.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization ?? ''}`.trim()),
			).toEqual([
				'GET /api/v2/senderlist Bearer stale-token',
				'POST /token',
				'GET /api/v2/senderlist Bearer tok1',
			]);
			expect(engine.credentials.stored('cred-1').accessToken).toBe('tok1');
		});

		it('later items and later executions reuse the stored token: one login for all', async () => {
			store();
			const first = await engine.runNode(node, [{ json: {} }, { json: {} }, { json: {} }]);
			const second = await engine.runNode(node, [{ json: {} }]);
			expect(first.items).toHaveLength(3);
			expect(second.items).toHaveLength(1);
			expect(server.count('POST', '/token')).toBe(1);
			expect(server.count('GET', '/api/v2/senderlist')).toBe(4);
			expect(engine.credentials.preAuthenticationCalls).toBe(1);
		});

		it('a wrong password fails with a clear error that never shows the password, and nothing else is sent', async () => {
			store({ password: 'Wrong-Secret-Password-99' });
			const result = await engine.runNode(node, [{ json: {} }]);
			expect(result.error).toBeDefined();
			const text =
				JSON.stringify(result.error) +
				String(result.error?.message) +
				String(result.error?.description);
			expect(result.error!.message).toMatch(/refused the username or password/);
			expect(text).not.toContain('Wrong-Secret-Password-99');
			expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /token']);
		});
	});
});

describe("what a failed login says (the token server's answer, never the request)", () => {
	const credential = new PhonovationApi();
	const node = nodeUsingCredential('authProbe', 'cred-1');
	let answer: { status: number; type: string; body: string };
	const server = new LoopbackServer((_req, res) => {
		res.writeHead(answer.status, { 'content-type': answer.type });
		res.end(answer.body);
	});
	let url: string;
	beforeAll(async () => {
		url = await server.start();
	});
	afterAll(async () => server.stop());

	async function loginError(authUrl: string) {
		const engine = new Engine({
			nodeTypes: { authProbe: new AuthProbe() },
			credentialTypes: [credential],
		});
		engine.credentials.set('cred-1', {
			username: USERNAME,
			password: PASSWORD,
			authUrl,
			baseUrl: authUrl,
			accessToken: '',
		});
		const result = await engine.runNode(node, [{ json: {} }]);
		return result.error?.message;
	}

	const JSON_TYPE = 'application/json';
	const refusedText = (status: number) =>
		`Phonovation refused the username or password (HTTP ${status} from ${url}/token). Check the credential's Username and Password.`;
	const notLoggedIn = (detail: string) =>
		`Could not log in to Phonovation at ${url}/token (${detail}). Check the credential's Auth URL.`;

	it.each([
		['401 without a body', 401, 'text/plain', '', () => refusedText(401)],
		['400 invalid_grant', 400, JSON_TYPE, '{"error":"invalid_grant"}', () => refusedText(400)],
		[
			'400 invalid_grant sent as text',
			400,
			'text/plain',
			'{"error":"invalid_grant","error_description":"x"}',
			() => refusedText(400),
		],
		[
			'400 invalid_request',
			400,
			JSON_TYPE,
			'{"error":"invalid_request"}',
			() => notLoggedIn('HTTP 400 invalid_request'),
		],
		['400 with no error code', 400, JSON_TYPE, '{"message":"bad"}', () => notLoggedIn('HTTP 400')],
		[
			'400 whose error is no OAuth code',
			400,
			JSON_TYPE,
			'{"error":"<b>bad</b> request"}',
			() => notLoggedIn('HTTP 400'),
		],
		[
			'400 whose error is not text',
			400,
			JSON_TYPE,
			'{"error":{"code":"invalid_grant"}}',
			() => notLoggedIn('HTTP 400'),
		],
		[
			'400 with an HTML page',
			400,
			'text/html',
			'<html><body>Bad Request</body></html>',
			() => notLoggedIn('HTTP 400'),
		],
		['500', 500, JSON_TYPE, '{"error":"server_error"}', () => notLoggedIn('HTTP 500 server_error')],
	])('%s', async (_name, status, type, body, message) => {
		answer = { status, type, body };
		expect(await loginError(url)).toBe(message());
	});

	it('an Auth URL where nothing answers says there was no HTTP response', async () => {
		const closed = new LoopbackServer(() => undefined);
		const closedUrl = await closed.start();
		await closed.stop();
		expect(await loginError(`${closedUrl}/`)).toBe(
			`Could not log in to Phonovation at ${closedUrl}/token (no HTTP response). Check the credential's Auth URL.`,
		);
	});

	it('a 200 with an empty access token is not a login', async () => {
		answer = { status: 200, type: JSON_TYPE, body: '{"access_token":"","token_type":"Bearer"}' };
		expect(await loginError(url)).toBe(
			`Phonovation's token server at ${url}/token answered without an access token.`,
		);
	});
});

describe('PhonovationApi credential against the simulator', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture();
	});
	beforeEach(() => f.reset());
	afterAll(async () => await f.stop());

	const listSenders = () => f.run({ resource: 'sender', operation: 'getAll' });

	it('a token answer without an access token fails the login, sends nothing else and stores no token', async () => {
		f.sim.injectFault('/token', {
			kind: 'status',
			status: 200,
			body: { token_type: 'Bearer', expires_in: 120 },
		});
		const result = await listSenders();
		expect(result.error?.message).toBe(
			`Phonovation's token server at ${f.sim.url}/token answered without an access token.`,
		);
		expect(f.sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /token 200',
		]);
		expect(f.engine.credentials.stored('cred-1').accessToken).toBe('');
	});

	it('a 5xx from the token server names the status and the Auth URL, without the password, and is not repeated', async () => {
		f.sim.injectFault('/token', { kind: 'status', status: 503 });
		const result = await listSenders();
		expect(result.error?.message).toBe(
			`Could not log in to Phonovation at ${f.sim.url}/token (HTTP 503). Check the credential's Auth URL.`,
		);
		expect(JSON.stringify(result.error)).not.toContain(f.sim.config.password);
		expect(f.sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /token 503',
		]);
		// The next execution logs in afresh and works.
		expect((await listSenders()).error).toBeUndefined();
	});

	describe("the credential's Test button (its test request, run by n8n-core's RoutingNode)", () => {
		const engineFor = () =>
			new Engine({
				nodeTypes: { credentialTest: new CredentialTestNode(credential) },
				credentialTypes: [credential],
			});
		const credential = new PhonovationApi();
		const testNode = nodeUsingCredential('credentialTest', 'cred-test');

		it.each([
			['as entered', ''],
			['with a trailing slash on the Base URL', '/'],
		])('logs in and lists the senders (%s)', async (_name, slash) => {
			const engine = engineFor();
			engine.credentials.set('cred-test', {
				...simulatorCredentialData(f.sim),
				baseUrl: `${f.sim.url}${slash}`,
				accessToken: '',
			});
			const result = await engine.runNode(testNode, [{ json: {} }]);
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => i.json.name)).toEqual(f.sim.config.senders.map((s) => s.name));
			expect(f.sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'POST /token 200',
				'GET /api/v2/senderlist 200',
			]);
		});

		it('fails on a wrong password with the refusal, before any API request', async () => {
			const engine = engineFor();
			engine.credentials.set('cred-test', {
				...simulatorCredentialData(f.sim, { password: 'not-the-password' }),
				accessToken: '',
			});
			const result = await engine.runNode(testNode, [{ json: {} }]);
			expect(result.error?.message).toMatch(
				/^Phonovation refused the username or password \(HTTP 401 from /,
			);
			expect(f.sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'POST /token 401',
			]);
		});
	});
});
