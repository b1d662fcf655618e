import { type Simulator, startSimulator } from './index';
import { accessToken, call, campaign, postCampaign } from './test-helpers';

const SCHEDULED = { success: true, message: 'Campaign scheduled', errors: [] };
const UNAUTHORIZED = { success: false, message: 'Unauthorized', errors: ['401 Unauthorized'] };
const UNSUPPORTED = {
	success: false,
	message: 'Unsupported Media Type',
	errors: ['Only application/json is allowed'],
};
const rejected = (errors: string[]) => ({
	success: false,
	message: 'Error scheduling campaign',
	errors,
});

describe('simulator: POST /api/v2/Campaign', () => {
	let sim: Simulator;
	let token: string;

	beforeEach(async () => {
		sim = await startSimulator({
			senders: [
				{ name: 'Phonovation', type: 0 },
				{ name: 'TwentyCharSenderId20', type: 2 },
			],
		});
		token = await accessToken(sim);
	});
	afterEach(async () => sim.stop());

	const send = (body: unknown) => postCampaign(sim, body, token);

	it('accepts an immediate campaign and records it exactly as received', async () => {
		const body = campaign({
			campaignName: 'Order Notifications',
			recipientInfo: [
				{ msisdn: '353861234567', notifyId: 'order-001' },
				{ msisdn: '353871234567', notifyId: 'order-002' },
			],
		});
		const response = await send(body);
		expect(response.status).toBe(200);
		expect(response.json()).toEqual(SCHEDULED);
		expect(sim.campaigns).toHaveLength(1);
		expect(sim.campaigns[0]).toMatchObject({
			id: 1,
			body,
			sendAt: null,
			status: 'sent',
			errors: [],
			accepted: [
				{ msisdn: '353861234567', notifyId: 'order-001' },
				{ msisdn: '353871234567', notifyId: 'order-002' },
			],
		});
		expect(Date.parse(sim.campaigns[0].receivedAt)).not.toBeNaN();
	});

	it('numbers campaigns in arrival order and also answers the lower-case path', async () => {
		await send(campaign());
		const lower = await postCampaign(sim, campaign({ text: 'second' }), token, '/api/v2/campaign');
		expect(lower.status).toBe(200);
		expect(sim.campaigns.map((c) => [c.id, c.body.text])).toEqual([
			[1, 'Your order is on the way!'],
			[2, 'second'],
		]);
		expect(sim.count('POST', '/api/v2/Campaign')).toBe(2);
	});

	it('answers 401 with the documented body when the token is missing, invalid or expired, and records nothing', async () => {
		const withAuth = (authorization?: string) =>
			call(`${sim.url}/api/v2/Campaign`, {
				headers: authorization ? { authorization } : {},
				json: campaign(),
			});
		sim.clock.freeze();
		const soonExpired = await accessToken(sim);
		sim.clock.advance(121);
		for (const authorization of [
			undefined,
			'Bearer',
			'Basic ZGVtbzpkZW1v',
			'Bearer garbage',
			`Bearer ${soonExpired}`,
		]) {
			const response = await withAuth(authorization);
			expect(response.status).toBe(401);
			expect(response.json()).toEqual(UNAUTHORIZED);
		}
		expect(sim.campaigns).toEqual([]);
	});

	it('answers 415 with the documented body for any content type but application/json', async () => {
		for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'text/json']) {
			const response = await call(`${sim.url}/api/v2/Campaign`, {
				headers: { authorization: `Bearer ${token}`, 'content-type': type },
				body: JSON.stringify(campaign()),
			});
			expect(response.status).toBe(415);
			expect(response.json()).toEqual(UNSUPPORTED);
		}
		const charset = await call(`${sim.url}/api/v2/Campaign`, {
			headers: {
				authorization: `Bearer ${token}`,
				'content-type': 'application/json; charset=utf-8',
			},
			body: JSON.stringify(campaign()),
		});
		expect(charset.status).toBe(200);
		expect(sim.campaigns).toHaveLength(1);
	});

	it('checks the token before the content type', async () => {
		const response = await call(`${sim.url}/api/v2/Campaign`, {
			headers: { 'content-type': 'text/plain' },
			body: 'hello',
		});
		expect(response.status).toBe(401);
	});

	it('rejects a body that is not JSON with 400', async () => {
		const response = await call(`${sim.url}/api/v2/Campaign`, {
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: '{"text": ',
		});
		expect(response.status).toBe(400);
		expect(response.json()).toMatchObject({ success: false, message: 'Error scheduling campaign' });
	});

	it.each([
		['empty text', { text: '' }, /text cannot be empty/i],
		['missing text', { text: undefined }, /text cannot be empty/i],
		['text over 2000', { text: 'x'.repeat(2001) }, /text.*2000/i],
		['missing from', { from: undefined }, /from/],
		['from over 20', { from: 'S'.repeat(21) }, /from.*20/],
		['campaignName over 30', { campaignName: 'c'.repeat(31) }, /campaign name.*30/i],
		[
			'notifyId over 30',
			{ recipientInfo: [{ msisdn: '353861234567', notifyId: 'n'.repeat(31) }] },
			/notifyId.*30/,
		],
		['no recipientInfo', { recipientInfo: undefined }, /recipient/i],
		['empty recipientInfo', { recipientInfo: [] }, /recipient/i],
		['recipient not an object', { recipientInfo: ['353861234567'] }, /recipientInfo\[0\]/],
	])('rejects %s with 400 and one error string', async (_name, overrides, pattern) => {
		const response = await send(campaign(overrides));
		expect(response.status).toBe(400);
		const body = response.json();
		expect(body).toMatchObject({ success: false, message: 'Error scheduling campaign' });
		expect(body.errors).toHaveLength(1);
		expect(body.errors[0]).toMatch(pattern);
		expect(sim.campaigns).toEqual([]);
	});

	it('accepts every field exactly at its limit', async () => {
		const response = await send({
			text: 'x'.repeat(2000),
			from: 'TwentyCharSenderId20',
			campaignName: 'c'.repeat(30),
			recipientInfo: [{ msisdn: '3538612345678901234', notifyId: 'n'.repeat(30) }],
		});
		expect(response.json()).toEqual(SCHEDULED);
	});

	it('lists one string per problem when several fields are wrong', async () => {
		const response = await send({
			text: '',
			from: 'S'.repeat(21),
			campaignName: 'c'.repeat(31),
			recipientInfo: [{ msisdn: '353861234567', notifyId: 'n'.repeat(31) }],
		});
		expect(response.status).toBe(400);
		expect(response.json().errors).toHaveLength(4);
	});

	it('rejects a sender that is not approved on the account with "Sender is not valid"', async () => {
		const response = await send(campaign({ from: 'Unknown' }));
		expect(response.status).toBe(400);
		expect(response.json()).toEqual(rejected(['Sender is not valid']));
		expect(sim.campaigns).toEqual([]);
	});

	it('accepts a campaign with some invalid numbers, skipping and listing them (partial acceptance)', async () => {
		const response = await send(
			campaign({
				recipientInfo: [
					{ msisdn: '353861234567', notifyId: 'a' },
					{ msisdn: '35312345678', notifyId: 'landline' },
					{ msisdn: '0871234567', notifyId: 'national' },
					{ msisdn: '012345678' },
					{ msisdn: '+353861234567' },
					{ msisdn: '087 123 4567' },
					{ msisdn: '3538612' },
					{ msisdn: '353861234567890123456' },
					{ msisdn: '447911123456' },
				],
			}),
		);
		expect(response.status).toBe(200);
		expect(response.json()).toEqual({
			success: true,
			message: 'Campaign scheduled',
			errors: [
				'Invalid MSISDN: 35312345678',
				'Invalid MSISDN: 012345678',
				'Invalid MSISDN: +353861234567',
				'Invalid MSISDN: 087 123 4567',
				'Invalid MSISDN: 3538612',
				'Invalid MSISDN: 353861234567890123456',
			],
		});
		expect(sim.campaigns[0].accepted).toEqual([
			{ msisdn: '353861234567', notifyId: 'a' },
			{ msisdn: '353871234567', notifyId: 'national' },
			{ msisdn: '447911123456' },
		]);
		expect(sim.campaigns[0].errors).toEqual(response.json().errors);
	});

	it('rejects the campaign with 400 when no recipient is valid', async () => {
		const response = await send(
			campaign({ recipientInfo: [{ msisdn: '35312345678' }, { msisdn: '' }] }),
		);
		expect(response.status).toBe(400);
		expect(response.json().errors).toEqual(
			expect.arrayContaining(['Invalid MSISDN: 35312345678', 'Invalid MSISDN: ']),
		);
		expect(sim.campaigns).toEqual([]);
	});

	it('accepts 400,000 recipients and rejects 400,001 with 400', async () => {
		const recipients = (n: number) =>
			Array.from({ length: n }, (_, i) => ({ msisdn: `3538${String(i).padStart(8, '0')}` }));
		const tooMany = await send(campaign({ recipientInfo: recipients(400_001) }));
		expect(tooMany.status).toBe(400);
		expect(tooMany.json().errors).toEqual([expect.stringMatching(/Too many recipients: 400001/)]);
		const atLimit = await send(campaign({ recipientInfo: recipients(400_000) }));
		expect(atLimit.json()).toEqual(SCHEDULED);
		expect(sim.campaigns[0].accepted).toHaveLength(400_000);
	}, 30_000);

	describe('sendAt', () => {
		beforeEach(() => {
			sim.clock.freeze();
		});

		const minutesFromNow = (minutes: number) =>
			new Date(Math.floor(sim.clock.now() / 60_000) * 60_000 + minutes * 60_000)
				.toISOString()
				.slice(0, 16) + 'Z';

		it('records a future sendAt as a scheduled campaign', async () => {
			const response = await send(campaign({ sendAt: '2030-06-01T09:00Z' }));
			expect(response.json()).toEqual(SCHEDULED);
			expect(sim.campaigns[0]).toMatchObject({ sendAt: '2030-06-01T09:00Z', status: 'scheduled' });
		});

		it.each([
			'2030-06-01T09:00:00Z',
			'2030-06-01 09:00Z',
			'2030-06-01T09:00+01:00',
			'2030-06-01T09:00',
			'',
			20300601,
		])('rejects the format %p', async (sendAt) => {
			const response = await send(campaign({ sendAt }));
			expect(response.status).toBe(400);
			expect(response.json().errors).toEqual([expect.stringContaining('yyyy-MM-ddTHH:mmZ')]);
		});

		it.each(['2030-02-30T09:00Z', '2030-13-01T09:00Z', '2030-06-01T24:00Z', '2030-06-01T09:60Z'])(
			'rejects the impossible date %s',
			async (sendAt) => {
				const response = await send(campaign({ sendAt }));
				expect(response.status).toBe(400);
				expect(response.json().errors).toEqual([expect.stringContaining('not a valid date')]);
			},
		);

		it('rejects a time in the past by the simulator clock, accepts the current minute', async () => {
			const past = await send(campaign({ sendAt: minutesFromNow(-1) }));
			expect(past.status).toBe(400);
			expect(past.json().errors).toEqual([expect.stringContaining('in the past')]);
			expect((await send(campaign({ sendAt: minutesFromNow(0) }))).status).toBe(200);
			const later = minutesFromNow(10);
			expect((await send(campaign({ sendAt: later }))).status).toBe(200);
			sim.clock.advance(11 * 60);
			const fresh = await accessToken(sim);
			const nowPast = await postCampaign(sim, campaign({ sendAt: later }), fresh);
			expect(nowPast.status).toBe(400);
		});
	});
});
