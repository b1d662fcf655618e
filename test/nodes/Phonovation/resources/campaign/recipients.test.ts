import { itemsOf, sharedFixture } from '../../fixture';

const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	text: 'Your order shipped',
};
type Json = Record<string, any>;
const jsonOf = (items: Array<{ json: unknown }>) => items.map((i) => i.json as Json);

describe('one bad row never blocks the rest (Continue On Fail per item)', () => {
	const fixture = sharedFixture();
	const rows = itemsOf(3, (i) => ({
		phone: `08760000${10 + i}`,
		ref: i === 1 ? 'r'.repeat(31) : `order-${i}`,
	}));
	const parameters = {
		...SEND,
		recipients: '={{ $json.phone }}',
		options: { notifyId: '={{ $json.ref }}' },
	};

	it('with Continue On Fail, the two good rows go out and the bad one is an error naming field, limit and item', async () => {
		const f = fixture();
		const result = await f.run(parameters, rows, { onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
			[
				{ msisdn: '353876000010', notifyId: 'order-0' },
				{ msisdn: '353876000012', notifyId: 'order-2' },
			],
		]);
		const out = jsonOf(result.items);
		expect(out[1]).toEqual({
			error: 'Notify ID is too long: 31 characters, the limit is 30 (item 1)',
		});
		expect(result.items[1].error?.description).toMatch(/Nothing was sent for this item/);
		expect([out[0].recipients[0].status, out[2].recipients[0].status]).toEqual([
			'accepted',
			'accepted',
		]);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('without Continue On Fail, nothing is sent when any row is invalid', async () => {
		const f = fixture();
		const result = await f.run(parameters, rows);
		expect(result.error?.message).toBe(
			'Notify ID is too long: 31 characters, the limit is 30 (item 1)',
		);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});
});

describe('dry run checks what a real send checks', () => {
	const fixture = sharedFixture();

	it('flags a sender the account has not approved, without any campaign request', async () => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			from: 'NotOurs',
			recipients: '0871234567',
			options: { dryRun: true },
		});
		expect(result.error?.message).toMatch(/^Sender ID "NotOurs" is not approved on this account/);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
		expect(f.sim.count('GET', '/api/v2/senderlist')).toBe(1);
	});

	it('shows the international-sender warning and leaves the Irish numbers out of the request body', async () => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			from: 'FreeText',
			recipients: '0871234567, 447911123456',
			options: { dryRun: true, messageType: 'transactional' },
		});
		expect(result.error).toBeUndefined();
		const [out] = jsonOf(result.items);
		expect(out.warnings).toEqual([expect.stringMatching(/FreeText.*does not deliver it to Irish/)]);
		expect(out.requests[0].body.recipientInfo).toEqual([{ msisdn: '447911123456' }]);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});
});

describe('duplicates and per-item settings', () => {
	const fixture = sharedFixture();

	it('the same number in two items is sent once, and the second item says under which item and Notify ID', async () => {
		const f = fixture();
		const result = await f.run(
			{ ...SEND, recipients: '={{ $json.phone }}', options: { notifyId: '={{ $json.ref }}' } },
			itemsOf(2, (i) => ({ phone: '0871234567', ref: `order-${i + 1}` })),
		);
		expect(f.sim.campaigns[0].body.recipientInfo).toEqual([
			{ msisdn: '353871234567', notifyId: 'order-1' },
		]);
		const [, second] = jsonOf(result.items);
		expect(second.recipients[0]).toMatchObject({
			status: 'duplicate',
			reason: 'already in this campaign from item 0, sent with Notify ID "order-1"; sent once',
		});
	});

	it("items whose requests differ only in Batch Size are one campaign: a number both list is texted once, in the first item's batch size", async () => {
		const f = fixture();
		const result = await f.run(
			{
				...SEND,
				recipients: '={{ $json.phones }}',
				options: { batchSize: '={{ $json.size }}', messageType: 'transactional' },
			},
			[
				{ json: { phones: ['0871000001', '0871000002', '0871000003'], size: 2 } },
				{ json: { phones: ['0871000003', '0871000005'], size: 1 } },
			],
		);
		expect(result.error).toBeUndefined();
		expect(
			f.sim.campaigns.map((c) => c.body.recipientInfo.map((r: { msisdn: string }) => r.msisdn)),
		).toEqual([
			['353871000001', '353871000002'],
			['353871000003', '353871000005'],
		]);
		const [, second] = jsonOf(result.items);
		expect(second.recipients.map((r: { status: string }) => r.status)).toEqual([
			'duplicate',
			'accepted',
		]);
		expect(second.warnings).toContain(
			"Batch Size differs on item(s) 1; their campaign (same Sender, Text, Send At, Campaign Name, Dry Run, Quiet Hours and Quiet Hours Time Zone) used item 0's 2, so that no number is texted twice",
		);
	});

	it.each([
		['one window written two ways', { quietHours: '21:00-08:00' }, { quietHours: '21:00 – 8:00' }],
		[
			'a zone spelt two ways',
			{ quietHours: '21:00-08:00', quietHoursTimeZone: 'Europe/Dublin' },
			{ quietHours: '21:00-08:00', quietHoursTimeZone: ' europe/dublin ' },
		],
		[
			'a zone for Quiet Hours that are off',
			{ quietHours: '', quietHoursTimeZone: 'Europe/Dublin' },
			{ quietHours: '' },
		],
		['Dry Run off written two ways', { dryRun: false }, { dryRun: 'FALSE' }],
	])(
		'rows whose options mean the same (%s) are one campaign: a number both list is texted once',
		async (_name, first, second) => {
			const f = fixture();
			const rows = [first, second].map((options) => ({ json: { options } }));
			const parameters = {
				...SEND,
				recipients: '0871234567',
				options: { messageType: 'transactional' },
			};
			// Each row's options by expression, as a spreadsheet gives them.
			const options = Object.fromEntries(
				[...new Set([...Object.keys(first), ...Object.keys(second)])].map((name) => [
					name,
					`={{ $json.options.${name} ?? "" }}`,
				]),
			);
			const result = await f.run(
				{ ...parameters, options: { ...parameters.options, ...options } },
				rows,
			);
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns.flatMap((c) => c.body.recipientInfo)).toEqual([
				{ msisdn: '353871234567' },
			]);
			expect(jsonOf(result.items).map((j) => j.recipients[0].status)).toEqual([
				'accepted',
				'duplicate',
			]);
		},
	);
});

describe('Exclude Numbers never misses an opted-out number', () => {
	const fixture = sharedFixture();

	it('an opt-out list that lost its leading zeros still excludes the numbers', async () => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			recipients: '0871234567, 0861234567',
			options: { excludeNumbers: '={{ [871234567, "86 123 4567"] }}' },
		});
		// Everyone was excluded, so there is no campaign to send.
		expect(result.error?.message).toMatch(/^Recipients: No valid recipient left/);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it('with Unreadable Exclusions = Warn, entries it cannot read are listed in the warnings; the readable ones still exclude', async () => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			recipients: '0871234567, 0861234567',
			options: {
				excludeNumbers: '0861234567, unsubscribed, 12',
				messageType: 'transactional',
				unreadableExclusions: 'warn',
			},
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns[0].body.recipientInfo).toEqual([{ msisdn: '353871234567' }]);
		const [out] = jsonOf(result.items);
		expect(out.recipients[1]).toMatchObject({ msisdn: '353861234567', status: 'excluded' });
		expect(out.warnings).toEqual([
			'Exclude Numbers: 2 entries could not be read as phone numbers and exclude no one — "unsubscribed": contains letters; ' +
				'"12": too short (2 digits, min 8)',
		]);
	});

	it('by default an unreadable entry stops the run before anything is sent', async () => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			recipients: '0871234567',
			options: { excludeNumbers: 'unsubscribed' },
		});
		expect(result.error?.message).toBe(
			'Exclude Numbers: 1 entry cannot be read as a phone number and would exclude no one — "unsubscribed": contains letters. ' +
				'Fix it, or set Unreadable Exclusions to Warn to send anyway (item 0)',
		);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it('a list that depends on the item is read for each item', async () => {
		const f = fixture();
		const result = await f.run(
			{
				...SEND,
				recipients: '0871000001, 0871000002',
				options: { excludeNumbers: '={{ $json.optedOut }}' },
			},
			[{ json: { optedOut: ['0871000001'] } }, { json: { optedOut: ['0871000002'] } }],
		);
		expect(result.error).toBeUndefined();
		const out = jsonOf(result.items);
		expect(out.map((o) => o.recipients.map((r: Json) => r.status))).toEqual([
			['excluded', 'accepted'],
			['accepted', 'excluded'],
		]);
	});

	it('a list that does not depend on the item is read once and excludes for every item', async () => {
		const f = fixture();
		const result = await f.run(
			{
				...SEND,
				recipients: '={{ $json.phone }}',
				options: { excludeNumbers: '={{ ["0871000002", "0871000003"].join(";") }}' },
			},
			itemsOf(4, (i) => ({ phone: `087100000${i + 1}` })),
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns[0].body.recipientInfo).toEqual([
			{ msisdn: '353871000001' },
			{ msisdn: '353871000004' },
		]);
	});
});

describe('a big list in one item is reported compactly', () => {
	const fixture = sharedFixture();
	/** Distinct Irish mobiles in national form. */
	const numbers = (count: number) =>
		Array.from({ length: count }, (_, i) => `0871${String(i).padStart(6, '0')}`);

	it('up to 1,000 recipients, every recipient is an object of its own', async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, recipients: '={{ $json.phones }}' }, [
			{ json: { phones: numbers(1_000) } },
		]);
		const [out] = jsonOf(result.items);
		expect(out.recipients).toHaveLength(1_000);
		expect(out.recipients[999]).toEqual({
			input: '0871000999',
			msisdn: '353871000999',
			notifyId: null,
			status: 'accepted',
			reason: null,
		});
		expect(out).not.toHaveProperty('acceptedNumbers');
	});

	it('above 1,000, accepted numbers are a plain list and only the others keep an object with their reason', async () => {
		const f = fixture();
		const phones = [...numbers(1_001), 'not a number', '0871000005'];
		const result = await f.run({ ...SEND, recipients: '={{ $json.phones }}' }, [
			{ json: { phones } },
		]);
		expect(result.error).toBeUndefined();
		const [out] = jsonOf(result.items);
		expect(f.sim.campaigns[0].body.recipientInfo).toHaveLength(1_001);
		expect(out.status).toBe('mixed');
		expect(out.counts).toMatchObject({ accepted: 1_001, invalid: 1, duplicate: 1 });
		expect(out.acceptedNumbers).toHaveLength(1_001);
		expect(out.acceptedNumbers[0]).toBe('353871000000');
		expect(out.acceptedNumbers).toEqual(
			f.sim.campaigns[0].body.recipientInfo.map((r: Json) => r.msisdn),
		);
		expect(out.dryRunNumbers).toEqual([]);
		expect(out.recipients.map((r: Json) => [r.input, r.status])).toEqual([
			['not a number', 'invalid'],
			['0871000005', 'duplicate'],
		]);
	});

	it('a dry run lists the numbers it would send as dryRunNumbers', async () => {
		const f = fixture();
		const result = await f.run(
			{ ...SEND, recipients: '={{ $json.phones }}', options: { dryRun: true } },
			[{ json: { phones: numbers(1_500) } }],
		);
		const [out] = jsonOf(result.items);
		expect(out.status).toBe('dry run');
		expect(out.dryRunNumbers).toHaveLength(1_500);
		expect(out.acceptedNumbers).toEqual([]);
		expect(out.recipients).toEqual([]);
		expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
	});

	it('when a batch fails, the numbers not sent keep their reason and the accepted ones stay listed', async () => {
		const f = fixture();
		// Batch 1 goes through (a fault that changes nothing), batch 2 is refused with a 400.
		f.sim.injectFault('/api/v2/Campaign', { kind: 'delay', ms: 0 });
		f.sim.injectFault('/api/v2/Campaign', { kind: 'status', status: 400 });
		const result = await f.run(
			{ ...SEND, recipients: '={{ $json.phones }}', options: { batchSize: 1_000 } },
			[{ json: { phones: numbers(2_000) } }],
			{ onError: 'continueErrorOutput' },
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toHaveLength(0);
		const [out] = jsonOf(result.outputs[1]);
		expect(out.error).toMatch(/batch 2 of 2/);
		expect(out.details.counts).toMatchObject({ accepted: 1_000, notSent: 1_000 });
		expect(out.details.acceptedNumbers).toEqual(
			f.sim.campaigns[0].body.recipientInfo.map((r: Json) => r.msisdn),
		);
		expect(out.details.recipients).toHaveLength(1_000);
		expect(out.details.recipients[999]).toMatchObject({
			msisdn: '353871001999',
			status: 'not sent',
			reason: expect.stringMatching(/batch 2 of 2/),
		});
	});
});
