import { type Simulator, startSimulator } from './index';
import {
	accessToken,
	call,
	campaign,
	login,
	postCampaign,
	until,
	withRealTimeBracket,
} from './test-helpers';

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
		expect(limited.json()).toEqual({
			success: false,
			message: 'Too Many Requests',
			errors: ['429 Too Many Requests'],
		});
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
		sim.injectFault('/api/v2/senderlist', {
			kind: 'status',
			status: 500,
			body: { detail: 'boom' },
		});
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

	it('a request held by a delay fault was authenticated on arrival: its token expiring while held does not refuse it', async () => {
		const token = await accessToken(sim);
		// 119 of the token's 120 s gone: it expires during the 2 s hold.
		sim.clock.advance(119);
		sim.injectFault('/api/v2/Campaign', { kind: 'delay', ms: 2000 });
		expect((await postCampaign(sim, campaign(), token)).status).toBe(200);
		expect(sim.campaigns).toHaveLength(1);
		// The next request with that token arrives after it expired.
		expect((await postCampaign(sim, campaign(), token)).status).toBe(401);
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

	it("an answer fault can name its media type: a 200 success:false as JSON, a proxy's 503 page as HTML, after processing", async () => {
		const token = await accessToken(sim);
		const refusal = JSON.stringify({
			success: false,
			message: 'Error scheduling campaign',
			errors: ['Internal error'],
		});
		sim.injectFault('/api/v2/Campaign', {
			kind: 'answer',
			status: 200,
			body: refusal,
			contentType: 'application/json',
		});
		sim.injectFault('/api/v2/Campaign', {
			kind: 'answer',
			status: 503,
			body: '<html><body>upstream reset</body></html>',
			contentType: 'text/html',
		});
		sim.injectFault('/api/v2/Campaign', { kind: 'answer', status: 502, body: 'Bad Gateway' });
		const json = await postCampaign(sim, campaign(), token);
		expect([json.status, json.headers['content-type'], json.json()]).toEqual([
			200,
			'application/json',
			JSON.parse(refusal),
		]);
		const html = await postCampaign(sim, campaign(), token);
		expect([html.status, html.headers['content-type'], html.text]).toEqual([
			503,
			'text/html',
			'<html><body>upstream reset</body></html>',
		]);
		const plain = await postCampaign(sim, campaign(), token);
		expect([plain.status, plain.headers['content-type']]).toEqual([
			502,
			'text/plain; charset=utf-8',
		]);
		// Each was processed before it was answered.
		expect(sim.campaigns).toHaveLength(3);
	});

	it('a status fault with a string body can name its media type; nothing is processed', async () => {
		const token = await accessToken(sim);
		sim.injectFault('/api/v2/Campaign', {
			kind: 'status',
			status: 503,
			body: '<html>503 Service Temporarily Unavailable</html>',
			contentType: 'text/html; charset=utf-8',
		});
		const page = await postCampaign(sim, campaign(), token);
		expect([page.status, page.headers['content-type'], page.text]).toEqual([
			503,
			'text/html; charset=utf-8',
			'<html>503 Service Temporarily Unavailable</html>',
		]);
		expect(sim.campaigns).toEqual([]);
	});

	it("an errorsAs fault processes the request and rewrites the provider's errors in shapes the spec does not show", async () => {
		const token = await accessToken(sim);
		const twoRefused = campaign({
			recipientInfo: [{ msisdn: '353861234567' }, { msisdn: '35312345678' }, { msisdn: '123' }],
		});
		sim.injectFault('/api/v2/Campaign', { kind: 'errorsAs', shape: 'objects' });
		sim.injectFault('/api/v2/Campaign', { kind: 'errorsAs', shape: 'mixed' });
		sim.injectFault('/api/v2/Campaign', { kind: 'errorsAs', shape: 'null' });
		sim.injectFault('/api/v2/Campaign', { kind: 'errorsAs', shape: 'null' });
		expect((await postCampaign(sim, twoRefused, token)).json()).toEqual({
			success: true,
			message: 'Campaign scheduled',
			errors: [
				{ msisdn: '35312345678', error: 'Invalid MSISDN' },
				{ msisdn: '123', error: 'Invalid MSISDN' },
			],
		});
		expect((await postCampaign(sim, twoRefused, token)).json().errors).toEqual([
			{ msisdn: '35312345678', error: 'Invalid MSISDN' },
			'Invalid MSISDN: 123',
			null,
			{ code: 17, error: 'Throttled, some messages delayed' },
		]);
		expect((await postCampaign(sim, campaign(), token)).json()).toEqual({
			success: true,
			message: 'Campaign scheduled',
			errors: null,
		});
		expect((await postCampaign(sim, twoRefused, token)).json().errors).toEqual([
			'Invalid MSISDN: 35312345678',
			'Invalid MSISDN: 123',
		]);
		expect(sim.campaigns.map((c) => c.accepted.map((r) => r.msisdn))).toEqual([
			['353861234567'],
			['353861234567'],
			['353861234567'],
			['353861234567'],
		]);
		// A refusal (400) is left as the provider words it.
		sim.injectFault('/api/v2/Campaign', { kind: 'errorsAs', shape: 'objects' });
		const refused = await postCampaign(
			sim,
			campaign({ recipientInfo: [{ msisdn: '123' }] }),
			token,
		);
		expect([refused.status, refused.json().errors]).toEqual([
			400,
			['Invalid MSISDN: 123', 'No valid recipient in recipientInfo'],
		]);
	});

	it('records every campaign request that reached it: arrival before any delay, body, whether processed, the answer and when', async () => {
		const token = await accessToken(sim);
		sim.injectFault('/api/v2/Campaign', { kind: 'delay', ms: 120 });
		sim.injectFault('/api/v2/Campaign', { kind: 'status', status: 429, retryAfter: 1 });
		sim.injectFault('/api/v2/Campaign', { kind: 'reset' });
		await postCampaign(sim, campaign({ text: 'one' }), token);
		await postCampaign(sim, campaign({ text: 'two' }), token);
		await expect(postCampaign(sim, campaign({ text: 'three' }), token)).rejects.toThrow();
		await until(
			() => sim.campaignExchanges.length === 3 && sim.campaignExchanges[2].status !== undefined,
		);
		const [held, limited, dropped] = sim.campaignExchanges;
		expect(held).toMatchObject({
			body: { text: 'one' },
			campaignId: 1,
			status: 200,
			fault: 'delay',
			contentType: 'application/json; charset=utf-8',
		});
		expect(JSON.parse(held.answer!)).toEqual({
			success: true,
			message: 'Campaign scheduled',
			errors: [],
		});
		expect(held.answeredAt! - held.arrivedAt).toBeGreaterThanOrEqual(100);
		expect(limited).toMatchObject({ body: { text: 'two' }, status: 429, fault: 'status' });
		expect(limited.campaignId).toBeUndefined();
		expect(dropped).toMatchObject({ body: { text: 'three' }, status: 0, fault: 'reset' });
		expect(sim.campaigns).toHaveLength(1);
		// Other paths are not recorded; reset() forgets them.
		await call(`${sim.url}/health`);
		expect(sim.campaignExchanges).toHaveLength(3);
		sim.reset();
		expect(sim.campaignExchanges).toEqual([]);
	});

	it('refuses malformed faults', () => {
		expect(() => sim.injectFault('/token', { kind: 'status', status: 42 })).toThrow(/status/);
		expect(() => sim.injectFault('/token', { kind: 'delay', ms: -1 })).toThrow(/ms/);
		expect(() => sim.injectFault('/token', { kind: 'explode' } as never)).toThrow(/kind/);
		expect(() => sim.injectFault('/token', { kind: 'reset' }, 0)).toThrow(/times/);
		expect(() => sim.injectFault('token', { kind: 'reset' })).toThrow(/path/);
		expect(() =>
			sim.injectFault('/token', { kind: 'answer', status: 200, body: '', contentType: 'html' }),
		).toThrow(/contentType/);
		expect(() =>
			sim.injectFault('/token', { kind: 'errorsAs', shape: 'strings' } as never),
		).toThrow(/shape/);
	});

	it('reset() forgets faults, records and clock changes', async () => {
		await postCampaign(sim, campaign());
		sim.injectFault('/health', { kind: 'status', status: 500 });
		sim.clock.freeze();
		sim.clock.advance(1000);
		const {
			value: now,
			before,
			after,
		} = withRealTimeBracket(() => {
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
