import type { INode } from 'n8n-workflow';

import { PhonovationApi } from '../../credentials/PhonovationApi.credentials';
import { Engine } from '../harness/engine';
import { LoopbackServer, sendJson } from '../harness/loopback';
import { AuthProbe } from '../harness/probe-node';

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
				return sendJson(res, 401, { error: 'invalid_grant', error_description: 'Invalid user credentials' });
			}
			issued++;
			return sendJson(res, 200, { access_token: `tok${issued}`, expires_in: 120, token_type: 'Bearer' });
		}
		if (req.method === 'GET' && req.path === '/api/v2/senderlist') {
			if (req.headers.authorization !== `Bearer tok${issued}`) {
				return sendJson(res, 401, { success: false, message: 'Unauthorized', errors: ['401 Unauthorized'] });
			}
			return sendJson(res, 200, [{ name: 'Acme', type: 0 }]);
		}
		sendJson(res, 404, {});
	});
	return server;
}

describe('PhonovationApi credential', () => {
	const credential = new PhonovationApi();

	it('declares the fields, the hidden expirable token and Bearer authentication', () => {
		const names = credential.properties.map((p) => p.name);
		expect(names).toEqual([
			'username',
			'password',
			'relaySecret',
			'urlToken',
			'apiId',
			'authUrl',
			'baseUrl',
			'legacyBaseUrl',
			'accessToken',
		]);
		const token = credential.properties.find((p) => p.name === 'accessToken')!;
		expect(token.type).toBe('hidden');
		expect(token.typeOptions).toEqual({ expirable: true, password: true });
		for (const secret of ['password', 'relaySecret', 'urlToken']) {
			expect(credential.properties.find((p) => p.name === secret)!.typeOptions?.password).toBe(true);
		}
		expect(credential.authenticate.properties.headers).toEqual({
			Authorization: '=Bearer {{$credentials.accessToken}}',
		});
		expect(credential.test.request.url).toBe('/api/v2/senderlist');
	});

	describe('in the real n8n-core engine', () => {
		let server: LoopbackServer;
		let baseUrl: string;
		let engine: Engine;
		const node: INode = {
			id: 'probe',
			name: 'Probe',
			type: 'authProbe',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { phonovationApi: { id: 'cred-1', name: 'Phonovation' } },
		};

		beforeEach(async () => {
			server = standIn();
			baseUrl = await server.start();
			engine = new Engine({ nodeTypes: { authProbe: new AuthProbe() }, credentialTypes: [credential] });
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
			expect(server.requests[0].headers['content-type']).toContain('application/x-www-form-urlencoded');
			expect(server.requests[1].headers.authorization).toBe('Bearer tok1');
			expect(engine.credentials.stored('cred-1').accessToken).toBe('tok1');
		});

		it('on a stale token: 401, one re-login, one retry that succeeds', async () => {
			store({ accessToken: 'stale-token' });
			const result = await engine.runNode(node, [{ json: {} }]);
			expect(result.error).toBeUndefined();
			expect(server.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization ?? ''}`.trim())).toEqual([
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
			const text = JSON.stringify(result.error) + String(result.error?.message) + String(result.error?.description);
			expect(result.error!.message).toMatch(/refused the username or password/);
			expect(text).not.toContain('Wrong-Secret-Password-99');
			expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /token']);
		});
	});
});
