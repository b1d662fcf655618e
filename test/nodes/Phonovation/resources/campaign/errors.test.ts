import { itemsOf, phonovationFixture, type PhonovationFixture } from '../../fixture';

const SEND = { resource: 'campaign', operation: 'send', from: 'Phonovation', text: 'Hi' };
const CAMPAIGN = '/api/v2/Campaign';

describe('campaign errors from the provider', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture();
	});
	beforeEach(() => f.reset());
	afterAll(async () => await f.stop());

	it.each([
		[
			400,
			{
				success: false,
				message: 'Error scheduling campaign',
				errors: ['Message text cannot be empty'],
			},
			/HTTP 400 .*Error scheduling campaign: Message text cannot be empty/,
		],
		[
			415,
			{
				success: false,
				message: 'Unsupported Media Type',
				errors: ['Only application/json is allowed'],
			},
			/HTTP 415 .*Only application\/json is allowed/,
		],
		[
			422,
			{ success: false, message: 'Unprocessable Entity', errors: ['Bad value'] },
			/HTTP 422 .*Bad value/,
		],
		[
			500,
			{ success: false, message: 'Internal Server Error', errors: [] },
			/HTTP 500 .*Internal Server Error/,
		],
	])(
		'HTTP %i becomes an error with the status and the provider text, sent once',
		async (status, body, message) => {
			f.sim.injectFault(CAMPAIGN, { kind: 'status', status, body });
			const result = await f.run({ ...SEND, recipients: '0871234567' });
			expect(result.error?.message).toMatch(message);
			expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
			expect(f.sim.campaigns).toHaveLength(0);
		},
	);

	it('429 with a Retry-After beyond 60 s is not waited for: the error reports it, posted once', async () => {
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 429, retryAfter: 90 });
		const result = await f.run({ ...SEND, recipients: '0871234567' });
		expect(result.error?.message).toMatch(/HTTP 429.*Retry-After: 90 s/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
	});

	it('a 500 is never repeated automatically (a repeat could double-send)', async () => {
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 500 });
		const result = await f.run({ ...SEND, recipients: '0871234567' });
		expect(result.error?.description).toMatch(/not repeated automatically/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
	});

	it('401 triggers one re-login and one retry; a second 401 is a credential error', async () => {
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 401 }, 1);
		const recovered = await f.run({ ...SEND, recipients: '0871234567' });
		expect(recovered.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(2);
		expect(f.sim.campaigns).toHaveLength(1);

		f.reset();
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 401 }, 2);
		const refused = await f.run({ ...SEND, recipients: '0871234567' });
		expect(refused.error?.message).toMatch(/HTTP 401/);
		expect(refused.error?.description).toMatch(
			/still refused the access token after logging in again/,
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(2);
	});

	it("a 200 with success:false is an error that keeps the provider's words and says the text may have gone", async () => {
		f.sim.injectFault(CAMPAIGN, {
			kind: 'status',
			status: 200,
			body: { success: false, message: 'No credits available', errors: [] },
		});
		const result = await f.run({ ...SEND, recipients: '0871234567' });
		expect(result.error?.message).toMatch(
			/did not confirm the campaign: the provider answered success: false with HTTP 2xx \(No credits available\)/,
		);
	});

	it('a wrong password is a clear credential error and nothing is sent', async () => {
		f.engine.credentials.set('cred-1', {
			...f.engine.credentials.stored('cred-1'),
			password: 'Not-The-Password-42',
			accessToken: '',
		});
		const result = await f.run({ ...SEND, recipients: '0871234567' });
		expect(result.error?.message).toMatch(
			/^Credential: Phonovation refused the username or password.*\(item 0\)$/,
		);
		expect(result.error?.description).toMatch(/Nothing was sent/);
		expect(JSON.stringify(result.error)).not.toContain('Not-The-Password-42');
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
		// one refused login, not a second attempt by the campaign request
		expect(f.sim.count('POST', '/token')).toBe(1);
	});

	it('with continue-on-fail a failed campaign becomes error items on its own items and other campaigns still go out', async () => {
		// A 400 is a refusal before processing: its numbers were not sent.
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 400 });
		const items = itemsOf(4, (i) => ({
			phone: `08712300${10 + i}`,
			text: i < 2 ? 'First' : 'Second',
		}));
		const result = await f.run(
			{ ...SEND, text: '={{ $json.text }}', recipients: '={{ $json.phone }}' },
			items,
			{ onError: 'continueRegularOutput' },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(4);
		const json = result.items.map((i) => i.json as Record<string, any>);
		expect(json[0].error).toMatch(/HTTP 400/);
		expect(json[1].error).toMatch(/HTTP 400/);
		// The per-recipient report survives n8n's error handling under `details`.
		expect(json[0].details.recipients[0]).toMatchObject({
			msisdn: '353871230010',
			status: 'not sent',
		});
		expect(json[2].error).toBeUndefined();
		expect(json[2].recipients[0].status).toBe('accepted');
		expect(result.items.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(f.sim.campaigns.map((c) => c.body.text)).toEqual(['Second']);
	});

	it('with continue-on-fail an invalid campaign gives error items and valid campaigns are sent', async () => {
		const items = itemsOf(2, (i) => ({ text: i === 0 ? 'x'.repeat(2001) : 'Fine' }));
		const result = await f.run(
			{ ...SEND, text: '={{ $json.text }}', recipients: '0871234567' },
			items,
			{ onError: 'continueRegularOutput' },
		);
		const json = result.items.map((i) => i.json as Record<string, any>);
		expect(json[0].error).toMatch(
			/Text is too long: 2001 characters, the limit is 2000 \(item 0\)/,
		);
		expect(result.items[0].error?.name).toBe('NodeOperationError');
		expect(json[1].recipients[0].status).toBe('accepted');
		expect(f.sim.campaigns).toHaveLength(1);
	});

	it('a failure in a later batch keeps earlier batches, sends no more, and says what was accepted', async () => {
		// The first request is only slowed down; the second one fails.
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 1 });
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 500 });
		const items = itemsOf(6, (i) => ({ phone: `08712399${10 + i}` }));
		const result = await f.run(
			{ ...SEND, recipients: '={{ $json.phone }}', options: { batchSize: 2 } },
			items,
		);
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo.length)).toEqual([2]);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(2);
		expect(result.error?.message).toMatch(/HTTP 500 to the campaign \(batch 2 of 3\)/);
		expect(result.error?.description).toMatch(/accepted 2 recipient\(s\)/);
	});
});
