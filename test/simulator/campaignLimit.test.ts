import { parseCliArgs } from './args';
import { type Simulator, startSimulator } from './index';
import { accessToken, call, campaign, postCampaign } from './test-helpers';

describe('simulator: a provider with a limit (campaignLimit)', () => {
	let sim: Simulator;

	afterEach(async () => sim.stop());

	it('admits at most max campaign requests at once; the rest get 429 with Retry-After and are not processed', async () => {
		sim = await startSimulator({ campaignLimit: { max: 3, retryAfter: 2 } });
		const token = await accessToken(sim);
		sim.injectFault('/api/v2/Campaign', { kind: 'delay', ms: 300 }, 5);
		const answers = await Promise.all(
			Array.from({ length: 5 }, (_, i) => postCampaign(sim, campaign({ text: `t${i}` }), token)),
		);
		const statuses = answers.map((a) => a.status).sort();
		expect(statuses).toEqual([200, 200, 200, 429, 429]);
		for (const refused of answers.filter((a) => a.status === 429))
			expect(refused.headers['retry-after']).toBe('2');
		expect(sim.campaigns).toHaveLength(3);
		// Once the three have been answered there is room again.
		expect((await postCampaign(sim, campaign({ text: 'later' }), token)).status).toBe(200);
		expect(sim.campaigns).toHaveLength(4);
	});

	it('counts only campaign requests, and is set and cleared through /_sim/config', async () => {
		sim = await startSimulator();
		const token = await accessToken(sim);
		const set = await call(`${sim.url}/_sim/config`, {
			method: 'POST',
			json: { campaignLimit: { max: 1, retryAfter: 0 } },
		});
		expect(set.json()).toMatchObject({ campaignLimit: { max: 1, retryAfter: 0 } });
		sim.injectFault('/api/v2/Campaign', { kind: 'delay', ms: 300 });
		const [first, second, health] = await Promise.all([
			postCampaign(sim, campaign({ text: 'a' }), token),
			postCampaign(sim, campaign({ text: 'b' }), token),
			call(`${sim.url}/health`),
		]);
		expect([first.status, second.status].sort()).toEqual([200, 429]);
		expect(health.status).toBe(200);
		const refused = await call(`${sim.url}/_sim/config`, {
			method: 'POST',
			json: { campaignLimit: { max: 0, retryAfter: 1 } },
		});
		expect(refused.status).toBe(400);
		await call(`${sim.url}/_sim/config`, { method: 'POST', json: { campaignLimit: null } });
		sim.injectFault('/api/v2/Campaign', { kind: 'delay', ms: 200 }, 2);
		const both = await Promise.all([
			postCampaign(sim, campaign({ text: 'c' }), token),
			postCampaign(sim, campaign({ text: 'd' }), token),
		]);
		expect(both.map((a) => a.status)).toEqual([200, 200]);
	});

	it('reads --campaign-limit n[:s] from the command line', () => {
		expect(parseCliArgs(['--campaign-limit', '20']).config.campaignLimit).toEqual({
			max: 20,
			retryAfter: 1,
		});
		expect(parseCliArgs(['--campaign-limit', '5:0']).config.campaignLimit).toEqual({
			max: 5,
			retryAfter: 0,
		});
		expect(() => parseCliArgs(['--campaign-limit', 'many'])).toThrow(/campaignLimit.max/);
	});
});
