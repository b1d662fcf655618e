import { phonovationFixture, type PhonovationFixture } from '../../fixture';

describe('sender.getAll and the Sender dropdown', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture({
			senders: [
				{ name: 'Phonovation', type: 0 },
				{ name: 'FreeText', type: 1 },
				{ name: '353851234567', type: 2 },
			],
		});
	});
	beforeEach(() => f.reset());
	afterAll(async () => await f.stop());

	it('returns one item per sender ID with a readable type', async () => {
		const result = await f.run({ resource: 'sender', operation: 'getAll' });
		expect(result.items.map((i) => i.json)).toEqual([
			{ name: 'Phonovation', type: 0, typeLabel: 'ComReg registered' },
			{ name: 'FreeText', type: 1, typeLabel: 'international — not delivered to Irish numbers' },
			{ name: '353851234567', type: 2, typeLabel: 'numeric' },
		]);
	});

	it('honours Return All off with a limit', async () => {
		const result = await f.run({
			resource: 'sender',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
		});
		expect(result.items.map((i) => i.json.name)).toEqual(['Phonovation', 'FreeText']);
	});

	it("fills the dropdown through n8n's load-options context, warning about type 1 senders", async () => {
		const options = await f.engine.loadOptions(
			f.node({ resource: 'campaign', operation: 'send' }),
			'getSenders',
		);
		expect(options).toEqual([
			{ name: '353851234567 (numeric)', value: '353851234567' },
			{ name: 'FreeText (international — not delivered to Irish numbers)', value: 'FreeText' },
			{ name: 'Phonovation (ComReg registered)', value: 'Phonovation' },
		]);
		expect(f.sim.count('POST', '/token')).toBe(1);
	});

	describe('when the provider fails', () => {
		const GET_MANY = { resource: 'sender', operation: 'getAll' };
		const trail = () => f.sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`);

		it("a 5xx stops the node with the status and the provider's words, asked once", async () => {
			f.sim.injectFault('/api/v2/senderlist', { kind: 'status', status: 500 });
			const result = await f.run(GET_MANY);
			expect(result.error?.message).toBe(
				'Phonovation answered HTTP 500 to the sender list request: Internal Server Error: 500 Internal Server Error',
			);
			expect(result.error?.description).toMatch(/^The provider had an internal error\./);
			expect(result.items).toEqual([]);
			expect(trail()).toEqual(['POST /token 200', 'GET /api/v2/senderlist 500']);
		});

		it('a 401 that survives one re-login says the account lacks API access, after exactly one re-login', async () => {
			f.sim.injectFault('/api/v2/senderlist', { kind: 'status', status: 401 }, 2);
			const result = await f.run(GET_MANY);
			expect(result.error?.message).toBe(
				'Phonovation answered HTTP 401 to the sender list request: Unauthorized: 401 Unauthorized',
			);
			expect(result.error?.description).toBe(
				'The provider still refused the access token after logging in again; check that the account has API access.',
			);
			expect(trail()).toEqual([
				'POST /token 200',
				'GET /api/v2/senderlist 401',
				'POST /token 200',
				'GET /api/v2/senderlist 401',
			]);
		});

		it('a dropped connection says so in words, with the network code in the description', async () => {
			f.sim.injectFault('/api/v2/senderlist', { kind: 'reset' });
			const result = await f.run(GET_MANY);
			expect(result.error?.message).toBe(
				'Could not reach Phonovation for the sender list request: the connection was closed before an answer arrived',
			);
			expect(result.error?.description).toMatch(/^Network error ECONNRESET\./);
			expect(f.sim.count('GET', '/api/v2/senderlist')).toBe(1);
		});

		it('with Continue On Fail, the failed item becomes an error item and the next item still lists the senders', async () => {
			f.sim.injectFault('/api/v2/senderlist', { kind: 'status', status: 503 });
			const result = await f.run(
				{ ...GET_MANY, returnAll: false, limit: 1 },
				[{ json: {} }, { json: {} }],
				{
					onError: 'continueRegularOutput',
				},
			);
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => [i.json, i.pairedItem])).toEqual([
				[
					{
						error:
							'Phonovation answered HTTP 503 to the sender list request: Service Unavailable: 503 Service Unavailable',
					},
					{ item: 0 },
				],
				[{ name: 'Phonovation', type: 0, typeLabel: 'ComReg registered' }, { item: 1 }],
			]);
		});
	});
});
