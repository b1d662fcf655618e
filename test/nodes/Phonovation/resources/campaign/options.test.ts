import { itemsOf, sharedFixture } from '../../fixture';

const SEND = { resource: 'campaign', operation: 'send', from: 'Phonovation', text: 'Hi', recipients: '0871234567' };

describe('campaign options checked before sending', () => {
	const fixture = sharedFixture();

	it.each(['35', '999', '0', '1876', 'IE', '+0353', '12a'])('a Default Country Code of "%s" is refused, naming the option', async (code) => {
		const f = fixture();
		const result = await f.run({ ...SEND, options: { defaultCountryCode: code } });
		expect(result.error?.message).toBe(
			`Default Country Code: "${code}" is not a country calling code (ITU-T E.164), e.g. 353 for Ireland or 44 for the UK (item 0)`,
		);
		expect(result.error?.description).toMatch(/Nothing was sent/);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it.each([
		['44', '07911 123456', '447911123456'],
		['+44', '07911 123456', '447911123456'],
		['0044', '07911 123456', '447911123456'],
		['1', '0212 555 0100', '12125550100'],
	])('a Default Country Code of "%s" turns %s into %s', async (code, input, msisdn) => {
		const f = fixture();
		const result = await f.run({ ...SEND, recipients: input, options: { defaultCountryCode: code } });
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns[0].body.recipientInfo).toEqual([{ msisdn }]);
	});

	it('with Continue On Fail, the item with a bad country code is an error and other campaigns go out', async () => {
		const f = fixture();
		const items = itemsOf(2, (i) => ({ code: i === 0 ? '1876' : '353', text: `T${i}` }));
		const result = await f.run(
			{ ...SEND, text: '={{ $json.text }}', options: { defaultCountryCode: '={{ $json.code }}' } },
			items,
			{ onError: 'continueRegularOutput' },
		);
		const json = result.items.map((i) => i.json as Record<string, any>);
		expect(json[0].error).toMatch(/^Default Country Code: "1876" is not a country calling code/);
		expect(json[1].recipients[0].status).toBe('accepted');
		expect(f.sim.campaigns.map((c) => c.body.text)).toEqual(['T1']);
	});

	it('legacy send refuses a bad Default Country Code the same way', async () => {
		const f = fixture();
		const result = await f.run({
			resource: 'legacyMessage',
			operation: 'send',
			from: 'Acme',
			to: '0871234567',
			text: 'Hi',
			options: { defaultCountryCode: '1876' },
		});
		expect(result.error?.message).toMatch(/^Default Country Code: "1876" is not a country calling code .* \(item 0\)$/);
		expect(f.sim.requests).toHaveLength(0);
	});
});
