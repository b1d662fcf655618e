import type { INode } from 'n8n-workflow';

import { PhonovationApi } from '../../credentials/PhonovationApi.credentials';
import { Phonovation } from '../../nodes/Phonovation/Phonovation.node';
import { CredentialTestNode } from '../harness/credential-test-node';
import { Engine } from '../harness/engine';
import { LoopbackServer, sendJson } from '../harness/loopback';

const USERNAME = 'acme';
/** Distinctive, so any trace of it anywhere is found. */
const PASSWORD = 'pw-Redirect-Secret-4417';
const NODE_TYPE = 'n8n-nodes-phonovation.phonovation';

function usingCredential(type: string): INode {
	return {
		id: type,
		name: type,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'sender', operation: 'getAll' },
		credentials: { phonovationApi: { id: 'cred-1', name: 'Phonovation' } },
	};
}

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
			return sendJson(res, 200, { access_token: `tok${issued}`, expires_in: 120, token_type: 'Bearer' });
		}
		if (req.method === 'GET' && req.path === '/api/v2/senderlist') return sendJson(res, 200, [{ name: 'Acme', type: 0 }]);
		sendJson(res, 404, {});
	});
	// Answers as the real API would to a request without a valid token.
	const elsewhere = new LoopbackServer((_req, res) => sendJson(res, 401, { message: 'Unauthorized' }));
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
			nodeTypes: { [NODE_TYPE]: new Phonovation(), credentialTest: new CredentialTestNode(credential) },
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
			expect(result.error?.message).toMatch(/^Phonovation's token server at .* answered HTTP 307 \(a redirect\)\./);
			expect(elsewhere.requests).toEqual([]);
		});
	});
});
