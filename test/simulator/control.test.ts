import { createHash } from 'node:crypto';

import type { LoopbackServer } from '../harness/loopback';
import { type Simulator, startSimulator } from './index';
import { call, campaign, login, postCampaign, relayReceiver } from './test-helpers';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** The /_sim/ routes, as a test running the simulator in another process would use them. */
describe('simulator: control routes under /_sim/', () => {
	let sim: Simulator;
	let receiver: LoopbackServer;
	let relayUrl: string;

	beforeEach(async () => {
		({ server: receiver, url: relayUrl } = await relayReceiver());
		sim = await startSimulator({ password: 'Control-Secret-Pw', relaySecret: 'Control-Relay-Key' });
	});
	afterEach(async () => {
		await sim.stop();
		await receiver.stop();
	});

	const control = (method: 'GET' | 'POST', path: string, json?: unknown) =>
		call(`${sim.url}/_sim${path}`, method === 'POST' ? { method, json: json ?? {} } : { method });

	it('shows the configuration without password or relay secret, and sets the relay URL', async () => {
		const before = await control('GET', '/config');
		expect(before.json()).toMatchObject({
			url: sim.url,
			username: 'demo',
			apiId: '1234',
			relayUrl: null,
		});
		expect(before.text).not.toContain('Control-Secret-Pw');
		expect(before.text).not.toContain('Control-Relay-Key');
		expect((await control('POST', '/config', { relayUrl })).json().relayUrl).toBe(relayUrl);
		expect(sim.config.relayUrl).toBe(relayUrl);
		expect((await control('POST', '/config', { relayUrl: 'ftp://x' })).status).toBe(400);
	});

	it('lists campaigns, legacy sends, requests and counts; control calls are not counted as requests', async () => {
		await postCampaign(sim, campaign());
		const campaigns = (await control('GET', '/campaigns')).json();
		expect(campaigns).toEqual([
			expect.objectContaining({ id: 1, status: 'sent', body: campaign() }),
		]);
		expect((await control('GET', '/legacy-sends')).json()).toEqual([]);
		expect((await control('GET', '/requests')).json()).toEqual([
			{ method: 'POST', path: '/token', status: 200 },
			{ method: 'POST', path: '/api/v2/Campaign', status: 200 },
		]);
		const counted = await call(`${sim.url}/_sim/count?method=POST&path=/token`);
		expect(counted.json()).toEqual({ count: 1 });
	});

	it('injects faults and resets over HTTP', async () => {
		const added = await control('POST', '/faults', {
			path: '/token',
			fault: { kind: 'status', status: 429, retryAfter: 3 },
			times: 2,
		});
		expect(added.json()).toEqual([
			{ path: '/token', fault: { kind: 'status', status: 429, retryAfter: 3 }, remaining: 2 },
		]);
		const limited = await login(sim);
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('3');
		expect(
			(await control('POST', '/faults', { path: '/token', fault: { kind: 'nope' } })).status,
		).toBe(400);
		expect((await control('POST', '/reset')).json()).toEqual({ reset: true });
		expect((await control('GET', '/faults')).json()).toEqual([]);
		expect((await login(sim)).status).toBe(200);
	});

	it('freezes and advances the clock so tokens expire without waiting', async () => {
		const frozen = (await control('POST', '/clock/freeze')).json();
		expect(frozen.frozen).toBe(true);
		const token = (await login(sim)).json().access_token;
		const advanced = (await control('POST', '/clock/advance', { seconds: 121 })).json();
		expect(advanced.now - frozen.now).toBe(121_000);
		expect(advanced.iso).toBe(new Date(advanced.now).toISOString());
		const expired = await call(`${sim.url}/api/v2/senderlist`, {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(expired.status).toBe(401);
		expect((await control('POST', '/clock/unfreeze')).json().frozen).toBe(false);
	});

	it('posts each kind of relay on request and returns what was sent and answered', async () => {
		await control('POST', '/config', { relayUrl });
		const inbound = (
			await control('POST', '/relay/inbound', { from: '353870000001', content: 'YES please' })
		).json();
		expect(inbound.status).toBe(200);
		expect(inbound.sent.fields['SMS-Verify']).toBe(md5('353870000001YES pleaseControl-Relay-Key'));
		const optOut = (await control('POST', '/relay/optout', { content: 'OPTOUT' })).json();
		expect(optOut.sent.fields['SMS-To']).toBe('50123');
		const receipt = (
			await control('POST', '/relay/receipt', { notifyId: 'x1', success: 'false' })
		).json();
		expect(receipt.sent.fields['SMS-Success']).toBe('False');
		expect(receipt.sent.fields['SMS-Verify']).toBe(md5('x1falseControl-Relay-Key'));
		const processing = (
			await control('POST', '/relay/processing-result', { status: 'CAMPAIGN_ERROR' })
		).json();
		expect(JSON.parse(processing.sent.body)).not.toHaveProperty('NotifyId');
		expect(receiver.requests).toHaveLength(4);
	});

	it('delivers scheduled campaigns over HTTP', async () => {
		await control('POST', '/config', { relayUrl });
		await postCampaign(sim, campaign({ sendAt: '2030-06-01T09:00Z' }));
		const delivered = (await control('POST', '/deliver')).json();
		expect(delivered.delivered).toEqual([1]);
		expect(delivered.relays).toHaveLength(2);
		expect((await control('POST', '/deliver', { campaignId: 1 })).status).toBe(409);
	});

	it('explains its errors: unknown route 404, bad JSON 400, no relay URL 409', async () => {
		const unknown = await control('GET', '/nothing');
		expect(unknown.status).toBe(404);
		expect(unknown.json().error).toContain('GET /_sim/campaigns');
		const bad = await call(`${sim.url}/_sim/reset`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{',
		});
		expect(bad.status).toBe(400);
		const noRelay = await control('POST', '/relay/inbound', {});
		expect(noRelay.status).toBe(409);
		expect(noRelay.json().error).toMatch(/relay URL/);
	});
});
