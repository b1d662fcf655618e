import type { Fault } from '../../../../simulator';
import { until } from '../../../../simulator/test-helpers';
import { itemsOf, phonovationFixture, type PhonovationFixture } from '../../fixture';

const CAMPAIGN = '/api/v2/Campaign';
const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	text: 'Hi',
	recipients: '={{ $json.phone }}',
};
const phones = (n: number, base = 10) =>
	itemsOf(n, (i) => ({ phone: `087555${String(base + i).padStart(4, '0')}` }));

/** Every recipient the simulator recorded, across campaigns: each must appear once. */
const recordedNumbers = (f: PhonovationFixture) =>
	f.sim.campaigns.flatMap((c) => c.body.recipientInfo.map((r: { msisdn: string }) => r.msisdn));

describe('provider faults through the action node', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture();
	});
	beforeEach(() => f.reset());
	afterAll(async () => await f.stop());

	it.each<[string, Fault, RegExp]>([
		[
			'429 with a Retry-After too long to wait',
			{ kind: 'status', status: 429, retryAfter: 617 },
			/HTTP 429.*Retry-After: 617 s/,
		],
		['500', { kind: 'status', status: 500 }, /HTTP 500/],
		[
			'a connection reset',
			{ kind: 'reset' },
			/Could not reach Phonovation for the campaign: the connection was closed before an answer arrived/,
		],
	])(
		'%s: a clear error on every item of that campaign, other campaigns sent, nothing lost or duplicated',
		async (_n, fault, message) => {
			f.sim.injectFault(CAMPAIGN, fault);
			const items = [...phones(3), ...phones(3, 50)].map((item, i) => ({
				json: { ...item.json, text: i < 3 ? 'First' : 'Second' },
			}));
			const result = await f.run({ ...SEND, text: '={{ $json.text }}' }, items, {
				onError: 'continueRegularOutput',
			});
			expect(result.items).toHaveLength(6);
			const json = result.items.map((i) => i.json as Record<string, any>);
			for (const failed of json.slice(0, 3)) expect(failed.error).toMatch(message);
			for (const sent of json.slice(3)) expect(sent.recipients[0].status).toBe('accepted');
			expect(f.sim.count('POST', CAMPAIGN)).toBe(2);
			expect(f.sim.campaigns.map((c) => c.body.text)).toEqual(['Second']);
		},
	);

	it('a response slower than the request timeout fails with a timeout error and is not repeated', async () => {
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 1500 });
		const result = await f.run({ ...SEND, options: { timeout: 1000 } }, phones(2));
		expect(result.error?.message).toMatch(/Phonovation did not answer the campaign in time/);
		expect(result.error?.description).toMatch(/not repeated automatically/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		// The provider still processes the late request: wait for it here, so it cannot land in the next test.
		await until(() => f.sim.campaigns.length === 1);
	});

	it('a token that expires between the batches of one run: one re-login, every batch sent exactly once', async () => {
		// Batch 1 goes through; as batch 2 arrives the provider's clock passes the token's lifetime.
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'advanceClock', seconds: 121 });
		const result = await f.run({ ...SEND, options: { batchSize: 2 } }, phones(5));
		expect(result.error).toBeUndefined();
		// Batch 2 was refused with 401 (expired token), n8n logged in again and repeated it once.
		expect(f.sim.requests.filter((r) => r.path === CAMPAIGN).map((r) => r.status)).toEqual([
			200, 401, 200, 200,
		]);
		const numbers = recordedNumbers(f);
		expect(numbers).toHaveLength(5);
		expect(new Set(numbers).size).toBe(5);
		expect(f.sim.count('POST', '/token')).toBe(2);
		expect(result.items.every((i) => (i.json as any).recipients[0].status === 'accepted')).toBe(
			true,
		);
	});

	it('without continue-on-fail a failure stops the node with the status, and no item is sent twice', async () => {
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
		const result = await f.run(SEND, phones(3));
		expect(result.error?.message).toMatch(/HTTP 503/);
		expect(result.error?.description).toMatch(/server error/);
		expect(f.sim.campaigns).toHaveLength(0);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
	});
});

describe('secrets never reach outputs or errors', () => {
	const secrets = {
		password: 'Pw-7d1f-Distinctive-Value',
		relaySecret: 'Relay-51c2-Distinctive-Value',
	};
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture(secrets);
	});
	afterAll(async () => await f.stop());

	const leaks = (value: unknown, token: string) => {
		const text =
			JSON.stringify(value) +
			String((value as Error)?.message ?? '') +
			String((value as any)?.description ?? '');
		return [secrets.password, secrets.relaySecret, token].filter((s) => s && text.includes(s));
	};

	it('in a full send, a failed login and a failed send', async () => {
		const sent = await f.run(SEND, phones(2));
		const token = String(f.engine.credentials.stored('cred-1').accessToken);
		expect(token.length).toBeGreaterThan(20);
		expect(leaks(sent.items, token)).toEqual([]);

		f.sim.injectFault(CAMPAIGN, {
			kind: 'status',
			status: 500,
			body: { success: false, message: 'boom', errors: [] },
		});
		const failed = await f.run(SEND, phones(2));
		expect(failed.error).toBeDefined();
		expect(leaks(failed.error, token)).toEqual([]);

		f.engine.credentials.set('cred-1', {
			...f.engine.credentials.stored('cred-1'),
			password: `${secrets.password}-wrong`,
			accessToken: '',
		});
		const refused = await f.run(SEND, phones(2));
		expect(refused.error?.message).toMatch(/refused the username or password/);
		expect(leaks(refused.error, token)).toEqual([]);
	});
});
