import { type Simulator, startSimulator } from './index';
import { accessToken, call, campaign, login, postCampaign } from './test-helpers';

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

	it('a delay fault holds the answer for that long, then answers normally', async () => {
		sim.injectFault('/health', { kind: 'delay', ms: 300 });
		const started = Date.now();
		const response = await call(`${sim.url}/health`);
		expect(response.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		const again = Date.now();
		await call(`${sim.url}/health`);
		expect(Date.now() - again).toBeLessThan(250);
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
		sim.reset();
		expect(sim.campaigns).toEqual([]);
		expect(sim.requests).toEqual([]);
		expect(sim.count('POST', '/token')).toBe(0);
		expect(Math.abs(sim.clock.now() - Date.now())).toBeLessThan(1000);
		expect((await call(`${sim.url}/health`)).status).toBe(200);
		await postCampaign(sim, campaign());
		expect(sim.campaigns[0].id).toBe(1);
	});
});
