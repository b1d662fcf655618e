import { sharedFixture } from '../../fixture';

const CAMPAIGN = '/api/v2/Campaign';
const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	text: 'Your order shipped',
};
const TRANSACTIONAL = { messageType: 'transactional' };
type Json = Record<string, any>;
const jsonOf = (items: Array<{ json: unknown }>) => items.map((i) => i.json as Json);

/** Rows as a spreadsheet or a JSON export hands them over: the same number as a float, as text and as a JS number. */
const ROWS = [
	{ json: { phone: '353871111111.0' } },
	{ json: { phone: 353871222222 } },
	{ json: { phone: '353871333333.00' } },
];
const TEXTED = [{ msisdn: '353871111111' }, { msisdn: '353871222222' }, { msisdn: '353871333333' }];

describe('spreadsheet numbers as recipients', () => {
	const fixture = sharedFixture();

	it.each([
		// Read straight from the item (the plain-field fast path) …
		['={{ $json.phone }}'],
		// … and through n8n's expression engine: both must text the same numbers.
		['={{ $json.phone ?? "" }}'],
	])(
		'%s: a float texts its whole number, never the number with its decimal 0 as a digit',
		async (recipients) => {
			const f = fixture();
			const result = await f.run({ ...SEND, recipients, options: TRANSACTIONAL }, ROWS);
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([TEXTED]);
			expect(jsonOf(result.items).map((o) => o.recipients[0].status)).toEqual([
				'accepted',
				'accepted',
				'accepted',
			]);
		},
	);

	it('scientific notation is an invalid number with its reason, skipped and reported by default', async () => {
		const f = fixture();
		const result = await f.run(
			{ ...SEND, recipients: '={{ $json.phone }}', options: TRANSACTIONAL },
			[{ json: { phone: '3.53871E+11' } }, { json: { phone: '0871234567' } }],
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
			[{ msisdn: '353871234567' }],
		]);
		expect(jsonOf(result.items)[0].recipients[0]).toMatchObject({
			input: '3.53871E+11',
			msisdn: null,
			status: 'invalid',
			reason: 'scientific notation: digits are lost (format the spreadsheet column as text)',
		});
	});

	it('with Invalid Numbers = Fail, scientific notation stops the run before anything is posted', async () => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			recipients: '0871234567, 3.53871E+11',
			options: { ...TRANSACTIONAL, invalidNumbers: 'fail' },
		});
		expect(result.error?.message).toBe(
			'Recipients: Invalid number "3.53871E+11": scientific notation: digits are lost (format the spreadsheet column as text) (item 0)',
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});
});

describe('spreadsheet numbers that lost their leading 0, under any Default Country Code', () => {
	const fixture = sharedFixture();

	/** Rows to `={{ $json.phone }}` with this Default Country Code: what was texted, and each row's recipient. */
	async function sending(phones: unknown[], defaultCountryCode: string, invalidNumbers = 'skip') {
		const f = fixture();
		const rows = phones.map((phone) => ({ json: { phone } as Json }));
		const options = { ...TRANSACTIONAL, defaultCountryCode, invalidNumbers };
		const result = await f.run({ ...SEND, recipients: '={{ $json.phone }}', options }, rows);
		return {
			f,
			result,
			texted: f.sim.campaigns.flatMap((c) => c.body.recipientInfo.map((r: Json) => r.msisdn)),
			recipients: jsonOf(result.items).map((o) => o.recipients?.[0]),
		};
	}

	it('Default Country Code 44: 2031234567 could be an Egyptian number or a London one, so it is refused naming both, never guessed', async () => {
		const { result, texted, recipients } = await sending([2031234567, '07911 123457'], '44');
		expect(result.error).toBeUndefined();
		expect(texted).toEqual(['447911123457']);
		expect(recipients[0]).toMatchObject({
			input: '2031234567',
			msisdn: null,
			status: 'invalid',
			reason:
				'ambiguous: 2031234567 as written (country code 20) or a UK number without its leading 0 (442031234567); ' +
				'write it with + and its country code',
		});
	});

	it('Default Country Code 44: 7911123456 is no number as written (+7 has ten digits), so it is refused as a UK mobile without its 0', async () => {
		const { texted, recipients } = await sending([7911123456, '07911 123457'], '44');
		expect(texted).toEqual(['447911123457']);
		expect(recipients[0]).toMatchObject({
			input: '7911123456',
			status: 'invalid',
			reason:
				'no country prefix: looks like a UK number without its leading 0 (447911123456); write it with its 0, or with + and its country code',
		});
	});

	it('Default Country Code 33: a French mobile without its 0 is refused with its reading, not sent to Australia', async () => {
		const { texted, recipients } = await sending([612345678, '06 12 34 56 79'], '33');
		expect(texted).toEqual(['33612345679']);
		expect(recipients[0]).toMatchObject({
			input: '612345678',
			status: 'invalid',
			reason:
				'no country prefix: looks like a French number without its leading 0 (33612345678); write it with its 0, or with + and its country code',
		});
	});

	it('Default Country Code 44: digits that start with no country calling code are refused, not sent as they are', async () => {
		const { texted, recipients } = await sending([871234567, '447911123456'], '44');
		expect(texted).toEqual(['447911123456']);
		// 0871 234567 is a UK number: the digits are read as one that lost its 0, never sent as written.
		expect(recipients[0]).toMatchObject({
			input: '871234567',
			status: 'invalid',
			reason:
				'no country prefix: looks like a UK number without its leading 0 (44871234567); write it with its 0, or with + and its country code',
		});
	});

	it('Default Country Code 39: an Italian mobile as Italians write it is texted as Italian, not as a Dutch number', async () => {
		const { texted, recipients } = await sending(['312 345 6789', 3123456780], '39');
		expect(texted).toEqual(['393123456789', '393123456780']);
		expect(recipients.map((r) => r.status)).toEqual(['accepted', 'accepted']);
	});

	it('with Invalid Numbers = Fail, an ambiguous number stops the run before anything is posted', async () => {
		const { f, result } = await sending([2031234567], '44', 'fail');
		expect(result.error?.message).toBe(
			'Recipients: Invalid number "2031234567": ambiguous: 2031234567 as written (country code 20) or a UK number without ' +
				'its leading 0 (442031234567); write it with + and its country code (item 0)',
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('the Irish default reads as before: an Irish mobile without its 0 is refused, bare international digits are sent', async () => {
		const { texted, recipients } = await sending([871234567, 447911123456, '0871234567'], '353');
		expect(texted).toEqual(['447911123456', '353871234567']);
		expect(recipients[0]).toMatchObject({
			status: 'invalid',
			reason: 'no country prefix: looks like an Irish mobile without its leading 0',
		});
	});
});
