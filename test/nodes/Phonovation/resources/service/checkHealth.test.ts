import { phonovationFixture, type PhonovationFixture } from '../../fixture';

describe('service.checkHealth', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture();
	});
	beforeEach(() => f.reset());
	afterAll(async () => await f.stop());

	it('reports healthy on 200 without logging in', async () => {
		const result = await f.run({ resource: 'service', operation: 'checkHealth' });
		expect(result.items[0].json).toMatchObject({ healthy: true, status: 200, reason: null });
		expect(f.sim.count('GET', '/health')).toBe(1);
		expect(f.sim.count('POST', '/token')).toBe(0);
	});

	it('reports unhealthy with the status instead of failing the workflow', async () => {
		f.sim.injectFault('/health', { kind: 'status', status: 503 });
		const result = await f.run({ resource: 'service', operation: 'checkHealth' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ healthy: false, status: 503, reason: 'HTTP 503' });
	});

	it('reports unhealthy when the connection is reset', async () => {
		f.sim.injectFault('/health', { kind: 'reset' });
		const result = await f.run({ resource: 'service', operation: 'checkHealth' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			healthy: false,
			status: null,
			reason: 'ECONNRESET',
		});
	});
});
