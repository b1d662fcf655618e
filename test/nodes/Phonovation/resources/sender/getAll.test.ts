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
		const result = await f.run({ resource: 'sender', operation: 'getAll', returnAll: false, limit: 2 });
		expect(result.items.map((i) => i.json.name)).toEqual(['Phonovation', 'FreeText']);
	});

	it("fills the dropdown through n8n's load-options context, warning about type 1 senders", async () => {
		const options = await f.engine.loadOptions(f.node({ resource: 'campaign', operation: 'send' }), 'getSenders');
		expect(options).toEqual([
			{ name: '353851234567 (numeric)', value: '353851234567' },
			{ name: 'FreeText (international — not delivered to Irish numbers)', value: 'FreeText' },
			{ name: 'Phonovation (ComReg registered)', value: 'Phonovation' },
		]);
		expect(f.sim.count('POST', '/token')).toBe(1);
	});
});
