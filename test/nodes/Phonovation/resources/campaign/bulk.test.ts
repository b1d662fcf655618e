import { itemsOf, phonovationFixture, type PhonovationFixture } from '../../fixture';

describe('campaign.send at scale', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture();
	});
	afterAll(async () => await f.stop());

	it('sends 100,000 input items as exactly one campaign request after exactly one login', async () => {
		const n = 100_000;
		const items = itemsOf(n, (i) => ({ phone: `0873${String(i).padStart(6, '0')}`, ref: `c${i}` }));
		const result = await f.run(
			{
				resource: 'campaign',
				operation: 'send',
				from: 'Phonovation',
				text: 'Big news',
				recipients: '={{ $json.phone }}',
				options: { notifyId: '={{ $json.ref }}' },
			},
			items,
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(1);
		expect(f.sim.count('POST', '/token')).toBe(1);
		expect(f.sim.campaigns[0].body.recipientInfo).toHaveLength(n);
		expect(f.sim.campaigns[0].body.recipientInfo[n - 1]).toEqual({
			msisdn: '353873099999',
			notifyId: 'c99999',
		});
		expect(result.items).toHaveLength(n);
		expect((result.items[n - 1].json as any).recipients[0].status).toBe('accepted');
		expect(result.items[n - 1].pairedItem).toEqual({ item: n - 1 });
	}, 300_000);
});
