import { type Simulator, startSimulator } from './index';
import { accessToken, call, form, jwtPart, login, withRealTimeBracket } from './test-helpers';

const UNAUTHORIZED = { success: false, message: 'Unauthorized', errors: ['401 Unauthorized'] };

describe('simulator: token server, sender list and health', () => {
	let sim: Simulator;

	beforeEach(async () => {
		sim = await startSimulator({ username: 'acme', password: 'pw-Token-Test-4411' });
	});
	afterEach(async () => sim.stop());

	const senderList = (token?: string) =>
		call(`${sim.url}/api/v2/senderlist`, {
			headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
		});

	it('listens on 127.0.0.1 and answers the health check without a token', async () => {
		expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		const health = await call(`${sim.url}/health`);
		expect(health.status).toBe(200);
	});

	it('issues a password-grant token with the documented fields and values', async () => {
		sim.clock.freeze();
		const response = await login(sim);
		expect(response.status).toBe(200);
		const body = response.json();
		expect(Object.keys(body).sort()).toEqual([
			'access_token',
			'expires_in',
			'refresh_expires_in',
			'refresh_token',
			'scope',
			'token_type',
		]);
		expect(body).toMatchObject({
			expires_in: 120,
			refresh_expires_in: 1200,
			token_type: 'Bearer',
			scope: 'email profile client_id',
		});
		expect(jwtPart(body.access_token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
		const access = jwtPart(body.access_token, 1);
		const refresh = jwtPart(body.refresh_token, 1);
		expect(access.exp - access.iat).toBe(120);
		expect(refresh.exp - refresh.iat).toBe(1200);
		expect(access.azp).toBe('ismstoken');
		expect(access.iat).toBe(Math.floor(sim.clock.now() / 1000));
	});

	it('dates tokens by the simulator clock and honours configured lifetimes', async () => {
		await sim.stop();
		sim = await startSimulator({ tokenTtl: 30, refreshTtl: 300 });
		sim.clock.freeze();
		sim.clock.advance(86_400);
		const body = (await login(sim)).json();
		expect(body.expires_in).toBe(30);
		expect(body.refresh_expires_in).toBe(300);
		expect(jwtPart(body.access_token, 1).exp).toBe(Math.floor(sim.clock.now() / 1000) + 30);
	});

	it('answers a wrong username or password with 401 invalid_grant and never echoes the password', async () => {
		for (const [username, password] of [
			['acme', 'Wrong-Password-Echo-Check'],
			['someone-else', 'pw-Token-Test-4411'],
			['', ''],
		]) {
			const response = await login(sim, username, password);
			expect(response.status).toBe(401);
			expect(response.json()).toEqual({
				error: 'invalid_grant',
				error_description: 'Invalid user credentials',
			});
			expect(response.text).not.toContain('Wrong-Password');
		}
	});

	it('answers a wrong client, an unsupported grant or a non-form body with 400', async () => {
		const post = (body: string, type = 'application/x-www-form-urlencoded') =>
			call(`${sim.url}/token`, { headers: { 'content-type': type }, body });
		const base = {
			grant_type: 'password',
			client_id: 'ismstoken',
			username: 'acme',
			password: 'pw-Token-Test-4411',
		};

		const client = await post(form({ ...base, client_id: 'other' }));
		expect(client.status).toBe(400);
		expect(client.json().error).toBe('invalid_client');

		const refresh = await post(form({ ...base, grant_type: 'refresh_token', refresh_token: 'x' }));
		expect(refresh.status).toBe(400);
		expect(refresh.json().error).toBe('unsupported_grant_type');

		const asJson = await post(JSON.stringify(base), 'application/json');
		expect(asJson.status).toBe(400);
		expect(asJson.json().error).toBe('invalid_request');
	});

	it('lists the configured senders as a bare array of {name, type}', async () => {
		const response = await senderList(await accessToken(sim));
		expect(response.status).toBe(200);
		expect(response.json()).toEqual([
			{ name: 'Phonovation', type: 0 },
			{ name: 'FreeText', type: 1 },
			{ name: '353851234567', type: 2 },
		]);
	});

	it('refuses the sender list without a valid access token, with the 401 body', async () => {
		const other = await startSimulator();
		try {
			const refreshToken = (await login(sim)).json().refresh_token;
			const access = await accessToken(sim);
			const tampered = access.slice(0, -4) + (access.endsWith('AAAA') ? 'BBBB' : 'AAAA');
			for (const token of [
				undefined,
				'not-a-jwt',
				tampered,
				refreshToken,
				await accessToken(other),
			]) {
				const response = await senderList(token);
				expect(response.status).toBe(401);
				expect(response.json()).toEqual(UNAUTHORIZED);
				expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
			}
		} finally {
			await other.stop();
		}
	});

	it('expires access tokens after 120 s of simulator time; a new login works again', async () => {
		sim.clock.freeze();
		const token = await accessToken(sim);
		sim.clock.advance(119);
		expect((await senderList(token)).status).toBe(200);
		sim.clock.advance(2);
		const expired = await senderList(token);
		expect(expired.status).toBe(401);
		expect(expired.json()).toEqual(UNAUTHORIZED);
		expect(expired.headers['www-authenticate']).toContain('expired');
		expect((await senderList(await accessToken(sim))).status).toBe(200);
		expect(sim.count('POST', '/token')).toBe(2);
		expect(sim.count('GET', '/api/v2/senderlist')).toBe(3);
	});

	it('unfreezing continues from the frozen instant instead of jumping back', async () => {
		sim.clock.freeze();
		sim.clock.advance(3600);
		const frozen = sim.clock.now();
		const {
			value: now,
			before,
			after,
		} = withRealTimeBracket(() => {
			sim.clock.unfreeze();
			return sim.clock.now();
		});
		// Jumping back would land an hour before `frozen`; running on adds at most the real time spent.
		expect(now).toBeGreaterThanOrEqual(frozen);
		expect(now - frozen).toBeLessThanOrEqual(after - before);
	});

	it('answers unknown paths with 404 and wrong methods with 405 and Allow', async () => {
		expect((await call(`${sim.url}/api/v2/nothing`)).status).toBe(404);
		const wrong = await call(`${sim.url}/api/v2/senderlist`, { method: 'DELETE' });
		expect(wrong.status).toBe(405);
		expect(wrong.headers.allow).toBe('GET');
		expect((await call(`${sim.url}/token`)).status).toBe(405);
	});

	it('logs every answered request in order, with paths but without queries', async () => {
		await call(`${sim.url}/health?probe=1`);
		await login(sim, 'acme', 'nope');
		expect(sim.requests).toEqual([
			{ method: 'GET', path: '/health', status: 200 },
			{ method: 'POST', path: '/token', status: 401 },
		]);
	});
});
