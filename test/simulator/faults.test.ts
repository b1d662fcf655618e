import { type Simulator, startSimulator } from './index';
import { accessToken, call, campaign, login, postCampaign, until, withRealTimeBracket } from './test-helpers';

describe('simulator: injected faults', () => {
	let sim: Simulator;

	beforeEach(async () => {
		sim = await startSimulator();
	});
	afterEach(async () => sim.stop());

	it('a 429 fault answers with Retry-After and a campaign-shaped body, once, and records no campaign', async () => {
		const token = await accessToken(sim);
		sim.injectFault('/api/v2/Campaign', { kind: 'status', status: 429, retryAfter: 7 });
		const limited = await postCampaign(sim, campaign(), token);
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('7');
		expect(limited.json()).toEqual({ success: false, message: 'Too Many Requests', errors: ['429 Too Many Requests'] });
		expect(sim.campaigns).toEqual([]);

		const retried = await postCampaign(sim, campaign(), token);
		expect(retried.status).toBe(200);
		expect(sim.campaigns).toHaveLength(1);
		expect(sim.requests.map((r) => r.status)).toEqual([200, 429, 200]);
	});

	it('a fault for N requests hits exactly the next N requests of that path, and no other path', async () => {
		sim.injectFault('/token', { kind: 'status', status: 500 }, 2);
		expect((await call(`${sim.url}/health`)).status).toBe(200);
		expect((await login(sim)).status).toBe(500);
		expect((await login(sim)).status).toBe(500);
		expect((await login(sim)).status).toBe(200);
		expect(sim.pendingFaults()).toEqual([]);
	});

	it('a fault path matches case-insensitively, like the routes', async () => {
		const token = await accessToken(sim);
		sim.injectFault('/api/v2/campaign', { kind: 'status', status: 503 });
		expect((await postCampaign(sim, campaign(), token, '/api/v2/Campaign')).status).toBe(503);
	});

	it('a status fault can carry its own body', async () => {
		sim.injectFault('/api/v2/senderlist', { kind: 'status', status: 500, body: { detail: 'boom' } });
		sim.injectFault('/health', { kind: 'status', status: 503, body: 'Unhealthy' });
		const json = await call(`${sim.url}/api/v2/senderlist`);
		expect(json.status).toBe(500);
		expect(json.json()).toEqual({ detail: 'boom' });
		const text = await call(`${sim.url}/health`);
		expect(text.status).toBe(503);
		expect(text.text).toBe('Unhealthy');
	});

	it('a delay fault holds only the request it hits: a later request is answered first, then the held one', async () => {
		sim.injectFault('/health', { kind: 'delay', ms: 2000 });
		const answered: string[] = [];
		const held = call(`${sim.url}/health`).then((r) => answered.push(`held ${r.status}`));
		await until(() => sim.count('GET', '/health') === 1);
		expect(sim.requests).toEqual([]);
		await call(`${sim.url}/health`).then((r) => answered.push(`later ${r.status}`));
		await held;
		expect(answered).toEqual(['later 200', 'held 200']);
		expect(sim.pendingFaults()).toEqual([]);
	});

	it('a reset fault drops the connection: the client sees a socket error; the next request works', async () => {
		const token = await accessToken(sim);
		sim.injectFault('/api/v2/Campaign', { kind: 'reset' });
		await expect(postCampaign(sim, campaign(), token)).rejects.toThrow(/socket|closed|reset/i);
		expect(sim.campaigns).toEqual([]);
		expect(sim.count('POST', '/api/v2/Campaign')).toBe(1);
		expect(sim.requests.at(-1)).toEqual({ method: 'POST', path: '/api/v2/Campaign', status: 0 });
		expect((await postCampaign(sim, campaign(), token)).status).toBe(200);
	});

	it('refuses malformed faults', () => {
		expect(() => sim.injectFault('/token', { kind: 'status', status: 42 })).toThrow(/status/);
		expect(() => sim.injectFault('/token', { kind: 'delay', ms: -1 })).toThrow(/ms/);
		expect(() => sim.injectFault('/token', { kind: 'explode' } as never)).toThrow(/kind/);
		expect(() => sim.injectFault('/token', { kind: 'reset' }, 0)).toThrow(/times/);
		expect(() => sim.injectFault('token', { kind: 'reset' })).toThrow(/path/);
	});

	it('reset() forgets faults, records and clock changes', async () => {
		await postCampaign(sim, campaign());
		sim.injectFault('/health', { kind: 'status', status: 500 });
		sim.clock.freeze();
		sim.clock.advance(1000);
		const { value: now, before, after } = withRealTimeBracket(() => {
			sim.reset();
			return sim.clock.now();
		});
		expect(sim.campaigns).toEqual([]);
		expect(sim.requests).toEqual([]);
		expect(sim.count('POST', '/token')).toBe(0);
		// Back on real time: neither frozen nor 1000 s ahead.
		expect(now).toBeGreaterThanOrEqual(before);
		expect(now).toBeLessThanOrEqual(after);
		expect((await call(`${sim.url}/health`)).status).toBe(200);
		await postCampaign(sim, campaign());
		expect(sim.campaigns[0].id).toBe(1);
	});
});
