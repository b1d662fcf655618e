import { itemsOf, phonovationFixture, sharedFixture, type PhonovationFixture } from '../../fixture';

const SEND = { resource: 'campaign', operation: 'send', from: 'Phonovation' };

type Json = Record<string, any>;
const jsonOf = (items: Array<{ json: unknown }>) => items.map((i) => i.json as Json);

describe('campaign.send in the real engine against the simulator', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture();
	});
	beforeEach(() => f.reset());
	afterAll(async () => await f.stop());

	it('merges items with the same sender and text into one campaign request with normalised numbers', async () => {
		const items = itemsOf(3, (i) => ({
			phone: ['087 123 4567', '+353 86 000 0001', '0044 7911 123456'][i],
			ref: `order-${i}`,
		}));
		const result = await f.run(
			{
				...SEND,
				text: 'Your order is on the way!',
				recipients: '={{ $json.phone }}',
				options: { notifyId: '={{ $json.ref }}' },
			},
			items,
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns).toHaveLength(1);
		expect(f.sim.campaigns[0].body).toEqual({
			text: 'Your order is on the way!',
			from: 'Phonovation',
			recipientInfo: [
				{ msisdn: '353871234567', notifyId: 'order-0' },
				{ msisdn: '353860000001', notifyId: 'order-1' },
				{ msisdn: '447911123456', notifyId: 'order-2' },
			],
		});
		const out = jsonOf(result.items);
		expect(out).toHaveLength(3);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[1].recipients).toEqual([
			{
				input: '+353 86 000 0001',
				msisdn: '353860000001',
				notifyId: 'order-1',
				status: 'accepted',
				reason: null,
			},
		]);
		expect(out[0].response).toEqual({ success: true, message: 'Campaign scheduled', errors: [] });
		expect(out[0].campaign).toMatchObject({
			from: 'Phonovation',
			recipients: 3,
			requests: 1,
			sendAt: null,
		});
		expect(f.sim.count('POST', '/token')).toBe(1);
	});

	it('sends items with different texts as separate campaigns', async () => {
		const items = itemsOf(4, (i) => ({ phone: `08700000${10 + i}`, lang: i % 2 ? 'ga' : 'en' }));
		const result = await f.run(
			{
				...SEND,
				text: '={{ $json.lang === "ga" ? "Dia duit" : "Hello" }}',
				recipients: '={{ $json.phone }}',
			},
			items,
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => [c.body.text, c.body.recipientInfo.length])).toEqual([
			['Hello', 2],
			['Dia duit', 2],
		]);
	});

	it('splits a list in one item, sends duplicates once, and never sends excluded numbers', async () => {
		const result = await f.run(
			{
				...SEND,
				text: 'Sale',
				recipients: '0871111111; 087 111 1111\n0862222222, 353863333333',
				options: { excludeNumbers: '={{ ["+353 86 333 3333"] }}', notifyId: 'promo' },
			},
			[{ json: {} }],
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns[0].body.recipientInfo).toEqual([
			{ msisdn: '353871111111', notifyId: 'promo' },
			{ msisdn: '353862222222', notifyId: 'promo' },
		]);
		const [out] = jsonOf(result.items);
		expect(out.recipients.map((r: Json) => [r.msisdn, r.status])).toEqual([
			['353871111111', 'accepted'],
			['353871111111', 'duplicate'],
			['353862222222', 'accepted'],
			['353863333333', 'excluded'],
		]);
		expect(out.counts).toMatchObject({ accepted: 2, duplicate: 1, excluded: 1 });
	});

	it('takes recipients and exclusions as arrays from expressions', async () => {
		const result = await f.run(
			{
				...SEND,
				text: 'Hi',
				recipients: '={{ $json.phones }}',
				options: { excludeNumbers: '={{ $json.optedOut }}' },
			},
			[
				{
					json: { phones: ['0871230001', 353871230002, '0871230003'], optedOut: ['353871230003'] },
				},
			],
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns[0].body.recipientInfo.map((r: Json) => r.msisdn)).toEqual([
			'353871230001',
			'353871230002',
		]);
	});

	it('skips and reports invalid numbers by default; with "fail" it sends nothing and names the item', async () => {
		const items = itemsOf(2, (i) => ({ phone: ['0871234567', 'call me'][i] }));
		const skipped = await f.run({ ...SEND, text: 'Hi', recipients: '={{ $json.phone }}' }, items);
		expect(skipped.error).toBeUndefined();
		expect(f.sim.campaigns[0].body.recipientInfo).toEqual([{ msisdn: '353871234567' }]);
		expect(jsonOf(skipped.items)[1].recipients[0]).toMatchObject({
			input: 'call me',
			status: 'invalid',
			msisdn: null,
		});

		f.reset();
		const failed = await f.run(
			{
				...SEND,
				text: 'Hi',
				recipients: '={{ $json.phone }}',
				options: { invalidNumbers: 'fail' },
			},
			items,
		);
		expect(failed.error?.message).toMatch(/Recipients: Invalid number "call me".*\(item 1\)/);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it.each([
		['empty text', { text: '={{ $json.missing ?? "" }}' }, /Text is empty \(item 0\)/],
		[
			'text over 2000',
			{ text: 'x'.repeat(2001) },
			/Text is too long: 2001 characters, the limit is 2000 \(item 0\)/,
		],
		[
			'sender over 20',
			{ from: 'S'.repeat(21) },
			/Sender ID is too long: 21 characters, the limit is 20 \(item 0\)/,
		],
		[
			'campaign name over 30',
			{ options: { campaignName: 'N'.repeat(31) } },
			/^Campaign Name is too long: 31 characters, the limit is 30 \(item 0\)/,
		],
		[
			'notify id over 30',
			{ options: { notifyId: 'n'.repeat(31) } },
			/Notify ID is too long: 31 characters, the limit is 30 \(item 0\)/,
		],
		['no valid recipient', { recipients: 'not-a-number' }, /Recipients: No valid recipient left/],
		[
			'batch size over the ceiling',
			{ options: { batchSize: 400001 } },
			/^Batch Size must be a whole number from 1 to 400000 \(got 400001\)/,
		],
	])('refuses %s before sending anything', async (_name, change, message) => {
		const result = await f.run({ ...SEND, text: 'Hello', recipients: '0871234567', ...change }, [
			{ json: {} },
		]);
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(/Nothing was sent/);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it('Max Parts per Text: a personalised row that would be billed as more parts is set apart before any credit is spent; the rest go', async () => {
		// Row 1's name has an emoji: UCS-2, 70 characters a part, so 100 characters are 2 parts.
		const items = [
			{ json: { name: 'Aoife' } },
			{ json: { name: 'Seán 🎉' } },
			{ json: { name: 'Conor' } },
		];
		const text = `={{ "Hi " + $json.name + ", " + "your order is ready. ".repeat(4) }}`;
		const parameters = {
			...SEND,
			text,
			recipients: '={{ "08712345" + $itemIndex + "0" }}',
			options: { messageType: 'transactional', maxParts: 1 },
		};
		const stopped = await f.run(parameters, items);
		expect(stopped.error?.message).toBe(
			'Max Parts per Text is 1, and the text is 2 parts long (item 1)',
		);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);

		f.reset();
		const result = await f.run(parameters, items, { onError: 'continueRegularOutput' });
		expect(jsonOf(result.items).map((j) => j.error ?? j.status)).toEqual([
			'accepted',
			'Max Parts per Text is 1, and the text is 2 parts long (item 1)',
			'accepted',
		]);
		expect(
			f.sim.campaigns.flatMap((c) => c.body.recipientInfo.map((r: { msisdn: string }) => r.msisdn)),
		).toEqual(['353871234500', '353871234520']);
	});

	it('names the offending item when a later item breaks a limit, and sends no campaign at all', async () => {
		const items = itemsOf(3, (i) => ({ ref: i === 2 ? 'r'.repeat(40) : `ok-${i}` }));
		const result = await f.run(
			{ ...SEND, text: 'Hi', recipients: '0871234567', options: { notifyId: '={{ $json.ref }}' } },
			items,
		);
		expect(result.error?.message).toMatch(
			/Notify ID is too long: 40 characters, the limit is 30 \(item 2\)/,
		);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it('refuses a sender ID the account has not approved, before spending credits', async () => {
		const result = await f.run({ ...SEND, from: 'Unknown', text: 'Hi', recipients: '0871234567' });
		expect(result.error?.message).toMatch(
			/Sender ID "Unknown" is not approved on this account \(approved: Phonovation, FreeText, 353851234567\)/,
		);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it("leaves Irish numbers out of an international (type 1) sender's campaign, before sending, and says why", async () => {
		const result = await f.run({
			...SEND,
			from: 'FreeText',
			text: 'Hi',
			recipients: '0871234567, 447911123456',
			options: { messageType: 'transactional' },
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns[0].body.recipientInfo).toEqual([{ msisdn: '447911123456' }]);
		const [out] = jsonOf(result.items);
		expect(out.recipients.map((r: Json) => [r.msisdn, r.status])).toEqual([
			['353871234567', 'undeliverable'],
			['447911123456', 'accepted'],
		]);
		expect(out.recipients[0].reason).toMatch(
			/FreeText.*international.*does not deliver it to Irish \(353\) numbers/,
		);
		expect(out.counts).toMatchObject({ accepted: 1, undeliverable: 1 });
		expect(out.warnings).toEqual([
			expect.stringMatching(
				/FreeText.*does not deliver it to Irish \(353\) numbers; they were left out/,
			),
		]);
	});

	it('with Invalid Numbers = Fail, Irish numbers for an international sender are an error before sending', async () => {
		const result = await f.run({
			...SEND,
			from: 'FreeText',
			text: 'Hi',
			recipients: '0871234567, 447911123456',
			options: { invalidNumbers: 'fail' },
		});
		expect(result.error?.message).toMatch(
			/^Recipients: Sender ID "FreeText" is international.*choose another sender \(item 0\)$/,
		);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it('reports encoding, segments and estimated credits, naming the characters that forced UCS-2', async () => {
		const result = await f.run({
			...SEND,
			text: 'Fáilte! Reply STOP',
			recipients: '0871234567, 0871234568',
		});
		const [out] = jsonOf(result.items);
		expect(out.text).toMatchObject({
			encoding: 'UCS-2',
			characters: 18,
			segments: 1,
			unicodeCharacters: ['á'],
			estimatedCredits: 2,
		});
		expect(out.campaign.estimatedCredits).toBe(2);

		const long = await f.run({ ...SEND, text: 'a'.repeat(161), recipients: '0871234567' });
		expect(jsonOf(long.items)[0].text).toMatchObject({
			encoding: 'GSM-7',
			segments: 2,
			perSegment: 153,
			estimatedCredits: 2,
		});
	});

	it('dry run sends nothing and shows the exact request body', async () => {
		const result = await f.run(
			{
				...SEND,
				text: 'Hi',
				recipients: '={{ $json.phone }}',
				options: { dryRun: true, campaignName: 'Test run' },
			},
			itemsOf(2, (i) => ({ phone: `087000000${i}` })),
		);
		expect(result.error).toBeUndefined();
		// The sender is checked against the account; no campaign request is made.
		expect(f.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /token',
			'GET /api/v2/senderlist',
		]);
		const out = jsonOf(result.items);
		expect(out[0].requests).toEqual([
			{
				method: 'POST',
				url: `${f.sim.url}/api/v2/Campaign`,
				body: {
					text: 'Hi',
					from: 'Phonovation',
					recipientInfo: [{ msisdn: '353870000000' }, { msisdn: '353870000001' }],
					campaignName: 'Test run',
				},
			},
		]);
		expect(out[1].recipients[0].status).toBe('dry run');
		expect(out[1].response).toBeNull();
	});

	it('splits a campaign into requests of Batch Size recipients', async () => {
		const result = await f.run(
			{ ...SEND, text: 'Hi', recipients: '={{ $json.phone }}', options: { batchSize: 2 } },
			itemsOf(5, (i) => ({ phone: `08700001${i}0` })),
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo.length)).toEqual([2, 2, 1]);
		expect(jsonOf(result.items)[0].campaign.requests).toBe(3);
		expect(f.sim.count('POST', '/token')).toBe(1);
	});

	it('partial acceptance marks the numbers the provider named as rejected and the rest accepted', async () => {
		const result = await f.run({ ...SEND, text: 'Hi', recipients: '0871234567, 01 234 5678' });
		expect(result.error).toBeUndefined();
		const [out] = jsonOf(result.items);
		expect(out.recipients.map((r: Json) => [r.msisdn, r.status])).toEqual([
			['353871234567', 'accepted'],
			['35312345678', 'rejected by provider'],
		]);
		expect(out.recipients[1].reason).toContain('35312345678');
		expect(out.response.success).toBe(true);
		expect(out.response.errors).toEqual([expect.stringContaining('35312345678')]);
	});

	it('logs in again once when the token expired between executions', async () => {
		await f.run({ ...SEND, text: 'One', recipients: '0871234567' });
		f.sim.clock.advance(121);
		const second = await f.run({ ...SEND, text: 'Two', recipients: '0871234567' });
		expect(second.error).toBeUndefined();
		expect(f.sim.count('POST', '/token')).toBe(2);
		expect(f.sim.campaigns.map((c) => c.body.text)).toEqual(['One', 'Two']);
	});
});

describe('output a person can read', () => {
	const fixture = sharedFixture();

	it("each item's own result comes first: status, number and reason for one recipient; campaign details after", async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, text: 'Hi', recipients: '={{ $json.phone }}' }, [
			{ json: { phone: '087 123 4567' } },
			{ json: { phone: 'call me' } },
		]);
		const [sent, invalid] = jsonOf(result.items);
		expect(Object.keys(sent).slice(0, 5)).toEqual([
			'status',
			'msisdn',
			'reason',
			'input',
			'notifyId',
		]);
		expect(sent).toMatchObject({
			status: 'accepted',
			msisdn: '353871234567',
			reason: null,
			input: '087 123 4567',
		});
		expect(invalid).toMatchObject({ status: 'invalid', msisdn: null, reason: 'contains letters' });
		expect(Object.keys(sent).indexOf('campaign')).toBeGreaterThan(
			Object.keys(sent).indexOf('recipients'),
		);
	});

	it('an item with several numbers shows one status (or mixed) before its recipients', async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, text: 'Hi', recipients: '0871234567, 0861234567, nope' });
		const [out] = jsonOf(result.items);
		expect(Object.keys(out).slice(0, 3)).toEqual(['status', 'recipients', 'counts']);
		expect(out.status).toBe('mixed');
	});
});
