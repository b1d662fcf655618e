import {
	describeUnreadable,
	isPhoneField,
	PHONE_FIELDS,
	readExclusions,
} from '../../../../nodes/Phonovation/domain/exclusions';

const numbersOf = (value: unknown, countryCode = '353') =>
	[...readExclusions(value, countryCode).numbers].sort();
const unreadableOf = (value: unknown, countryCode = '353') =>
	readExclusions(value, countryCode).unreadable.map(describeUnreadable);

describe('readExclusions: every shape users pass to Exclude Numbers', () => {
	it.each([
		{ shape: 'one number', value: '0871234567', numbers: ['353871234567'] },
		{
			shape: 'comma and semicolon list',
			value: '0871234567, 0861234567;0851234567',
			numbers: ['353851234567', '353861234567', '353871234567'],
		},
		{
			shape: 'newline-joined',
			value: '0871234567\n0861234567\r\n\r\n0851234567\n',
			numbers: ['353851234567', '353861234567', '353871234567'],
		},
		{
			shape: 'space-joined',
			value: '0871234567 0861234567  +447911123456',
			numbers: ['353861234567', '353871234567', '447911123456'],
		},
		{
			shape: 'tab-joined (a pasted spreadsheet row)',
			value: '0871234567\t0861234567',
			numbers: ['353861234567', '353871234567'],
		},
		{ shape: 'one number written with spaces', value: '087 123 4567', numbers: ['353871234567'] },
		{
			shape: 'numbers written with spaces, comma separated',
			value: '087 123 4567, +353 86 123 4567',
			numbers: ['353861234567', '353871234567'],
		},
		{
			shape: 'lost-0 Irish mobiles, space-joined',
			value: '871234567 861234567',
			numbers: ['353861234567', '353871234567'],
		},
		{ shape: 'tel: URI', value: 'tel:+353-87-123-4567', numbers: ['353871234567'] },
		{
			shape: 'tel: URIs in a list, with parameters',
			value: 'TEL:+353871234567;ext=12, tel:+353-86-123-4567;phone-context=example.com',
			numbers: ['353861234567', '353871234567'],
		},
		{
			shape: 'tel: URIs, semicolon-joined',
			value: 'tel:+353871234567;tel:+353861234567',
			numbers: ['353861234567', '353871234567'],
		},
		{ shape: 'spreadsheet float as text', value: '353871111111.0', numbers: ['353871111111'] },
		{ shape: 'spreadsheet float as a JS number', value: 353871111111, numbers: ['353871111111'] },
		{
			shape: 'array of numbers',
			value: [353871111111, 871234567, 447911123456],
			numbers: ['353871111111', '353871234567', '447911123456'],
		},
		{
			shape: 'nested arrays with lists inside',
			value: [['0871234567', ['0861234567;0851234567']], '', null],
			numbers: ['353851234567', '353861234567', '353871234567'],
		},
		{
			shape: 'item json objects',
			value: [{ phone: '0871234567', name: 'x' }, { Mobile: '0861234567' }],
			numbers: ['353861234567', '353871234567'],
		},
		{
			shape: "whole n8n items ($('Opted-Out').all())",
			value: [
				{ json: { phone: '0871234567', optedOutAt: '2030-01-01' }, pairedItem: { item: 0 } },
				{ json: { phone: 861234567 }, pairedItem: { item: 1 } },
			],
			numbers: ['353861234567', '353871234567'],
		},
		{
			shape: "one n8n item ($('Opted-Out').first())",
			value: { json: { msisdn: '353871234567' } },
			numbers: ['353871234567'],
		},
		{
			shape: "the Phonovation Trigger's opt-out items",
			value: [{ json: { event: 'optOut', from: '353871234567', text: 'STOP' } }],
			numbers: ['353871234567'],
		},
		{
			shape: 'every phone field of a contact',
			value: { phone: '01 234 5678', mobile: '0871234567', number: '' },
			numbers: ['35312345678', '353871234567'],
		},
		{
			shape: 'field names in any case and spelling',
			value: [
				{ 'Phone Number': '0871234567' },
				{ mobile_number: '0861234567' },
				{ TEL: '0851234567' },
			],
			numbers: ['353851234567', '353861234567', '353871234567'],
		},
		{
			shape: "an object's only text or number value",
			value: [{ 'Opted out': '0871234567', at: null, unsubscribed: true }],
			numbers: ['353871234567'],
		},
		{
			shape: 'a phone field holding a list',
			value: { phone: ['0871234567', '0861234567'] },
			numbers: ['353861234567', '353871234567'],
		},
		{ shape: 'nothing', value: undefined, numbers: [] },
		{ shape: 'empty text', value: '  ', numbers: [] },
		{ shape: 'a row whose phone is empty', value: [{ phone: '', name: 'x' }], numbers: [] },
	])('$shape', ({ value, numbers }) => {
		const read = readExclusions(value, '353');
		expect({ numbers: [...read.numbers].sort(), unreadable: read.unreadable }).toEqual({
			numbers,
			unreadable: [],
		});
	});

	it('splits at whitespace only when every part is a whole number', () => {
		expect(numbersOf('087 123 4567')).toEqual(['353871234567']);
		expect(numbersOf('0871234567 0861234567')).toEqual(['353861234567', '353871234567']);
		expect(numbersOf('+353 87 123 4567')).toEqual(['353871234567']);
		// Two numbers each written with spaces cannot be told apart: refused, never half-read.
		expect(numbersOf('087 123 4567 086 123 4567')).toEqual([]);
		expect(unreadableOf('087 123 4567 086 123 4567')).toEqual([
			'"087 123 4567 086 123 4567": too long (22 digits, max 20)',
		]);
		expect(unreadableOf('0871234567 unsubscribed')).toEqual([
			'"0871234567 unsubscribed": contains letters',
		]);
	});

	it('reads a spreadsheet float as its whole number, never with its 0 as a digit', () => {
		for (const value of [
			'353871111111.0',
			353871111111,
			[353871111111],
			{ phone: '353871111111.00' },
		]) {
			expect({ value, numbers: numbersOf(value) }).toEqual({ value, numbers: ['353871111111'] });
		}
		expect(readExclusions('353871111111.0', '353').numbers.has('3538711111110')).toBe(false);
	});

	it('follows the Default Country Code for national entries', () => {
		expect(numbersOf([{ phone: '07911 123456' }], '44')).toEqual(['447911123456']);
	});
});

describe('readExclusions: what it cannot read is listed, with where it sits and why', () => {
	it.each([
		{ value: 'unsubscribed', unreadable: ['"unsubscribed": contains letters'] },
		{ value: '12', unreadable: ['"12": too short (2 digits, min 8)'] },
		{
			value: '3.53871E+11',
			unreadable: [
				'"3.53871E+11": scientific notation: digits are lost (format the spreadsheet column as text)',
			],
		},
		{
			value: [353871111111, 3.53871e11 + 0.5],
			unreadable: ['[1] "353871000000.5": not a whole number (it has a decimal part)'],
		},
		{ value: ['0871234567', 'call me'], unreadable: ['[1] "call me": contains letters'] },
		{ value: [{ json: { phone: 'n/a' } }], unreadable: ['[0].json.phone "n/a": contains letters'] },
		{
			value: [{ json: { name: 'Aoife', email: 'a@example.com' }, pairedItem: { item: 0 } }],
			unreadable: [
				'[0].json: no phone field (phone, mobile, msisdn, number, …) and 2 other values, so none is taken; its fields: name, email',
			],
		},
		{
			value: { json: {} },
			unreadable: [
				'json: no phone field (phone, mobile, msisdn, number, …) and no text or number in it',
			],
		},
		{
			value: [{ contact: { phone: '0871234567' } }],
			unreadable: [
				'[0]: no phone field (phone, mobile, msisdn, number, …) and no text or number in it; its fields: contact',
			],
		},
		{ value: [true], unreadable: ['[0] "true": contains letters'] },
	])('$value → $unreadable', ({ value, unreadable }) => {
		expect(unreadableOf(value)).toEqual(unreadable);
	});

	it('never shows the value of a field not named as a phone number: it could be a secret', () => {
		expect(unreadableOf([{ apiToken: 'sk_live_0123456789abcdef' }])).toEqual([
			'[0].apiToken: contains letters',
		]);
		expect(unreadableOf({ json: { password: 'hunter2hunter2' } })).toEqual([
			'json.password: contains letters',
		]);
	});

	it('cuts a long entry at 40 characters', () => {
		const [entry] = readExclusions(`unsubscribed ${'x'.repeat(200)}`, '353').unreadable;
		expect(entry.shown).toBe(`unsubscribed ${'x'.repeat(27)}…`);
	});

	it('keeps the numbers it can read beside the entries it cannot', () => {
		const read = readExclusions('0861234567, unsubscribed, 12', '353');
		expect([...read.numbers]).toEqual(['353861234567']);
		expect(read.unreadable.map((u) => u.shown)).toEqual(['unsubscribed', '12']);
	});
});

describe('PHONE_FIELDS', () => {
	it('names the phone-like fields the README lists', () => {
		expect(PHONE_FIELDS).toEqual([
			'phone',
			'phoneNumber',
			'mobile',
			'mobileNumber',
			'mobilePhone',
			'msisdn',
			'number',
			'cell',
			'cellPhone',
			'tel',
			'telephone',
			'from',
			'to',
		]);
	});
});

describe('Exclude Numbers: hostile text', () => {
	it('reads 20,000 "tel:" in a row in one pass and refuses it, instead of rescanning the rest from each one', () => {
		const list = readExclusions('tel:'.repeat(20_000), '353');
		expect(list.numbers.size).toBe(0);
		expect(list.unreadable).toHaveLength(1);
	});
});

describe('isPhoneField: every field whose name says phone, mobile, cell, msisdn or tel', () => {
	it.each([
		'Phone',
		'phone',
		'MobilePhone',
		'mobile_phone',
		'mobile-phone',
		'Mobile Phone Number',
		'mobilephonenumber',
		'Mobile No.',
		'mobileNumber',
		'Cell',
		'Cellular',
		'cell_phone',
		'Tel',
		'TEL',
		'TelNo',
		'Work Tel',
		'Telephone',
		'Home Phone',
		'phone2',
		'MSISDN',
		'msisdnNumber',
		'Téléphone',
		'Teléfono',
		'Telefon',
		'Celular',
		'number',
		'from',
		'to',
	])('%s is read', (name) => {
		expect(isPhoneField(name)).toBe(true);
	});

	it.each([
		'Hotel',
		'Title',
		'Telegram',
		'Cancellation',
		'Cellar',
		'Excellent',
		'name',
		'Order Number',
		'Fax',
		'email',
		'Automobile',
	])('%s is not', (name) => {
		expect(isPhoneField(name)).toBe(false);
	});
});

describe('readExclusions: CRM rows', () => {
	it.each([
		{
			shape: 'an empty Phone beside a MobilePhone',
			value: [{ Phone: '', MobilePhone: '087 100 0002' }],
			numbers: ['353871000002'],
		},
		{
			shape: 'an empty Phone beside a Mobile Phone Number',
			value: [{ Phone: '', 'Mobile Phone Number': '087 100 0002' }],
			numbers: ['353871000002'],
		},
		{
			shape: 'an empty Tel beside a Mobile No.',
			value: { Tel: '', 'Mobile No.': '087 100 0002', Cell: null },
			numbers: ['353871000002'],
		},
		{
			shape:
				"a contact's phone and mobile, both (and a number written as one in another field: excluding a stranger costs little)",
			value: {
				json: {
					Telephone: '01 234 5678',
					mobile_phone: '087 100 0002',
					Fax: '01 234 5679',
					Name: 'Aoife',
					customerId: 871234568,
					whatsappOptIn: true,
				},
			},
			numbers: ['35312345678', '35312345679', '353871000002'],
		},
		{
			shape:
				'a mobile in a field not named as a phone beside a landline (Handy, Contact Number, WhatsApp)',
			value: [
				{ Phone: '01 676 1234', Handy: '087 123 4510' },
				{ Name: 'B', Phone: '01 676 1235', 'Contact Number': '087 123 4511' },
				{ phone: '016761236', WhatsApp: '+353871234512' },
			],
			numbers: [
				'35316761234',
				'35316761235',
				'35316761236',
				'353871234510',
				'353871234511',
				'353871234512',
			],
		},
		{
			shape: 'phone fields all empty, no other number: no one, like an empty line',
			value: [{ Phone: '', Mobile: null, Name: 'Aoife' }],
			numbers: [],
		},
		{
			shape: 'phone fields empty but another is unreadable text',
			value: [{ Phone: ' ', Notes: 'unsubscribed 2030' }],
			numbers: [],
		},
	])('$shape', ({ value, numbers }) => {
		const read = readExclusions(value, '353');
		expect({ numbers: [...read.numbers].sort(), unreadable: read.unreadable }).toEqual({
			numbers,
			unreadable: [],
		});
	});

	it('a row whose phone fields are empty while another field holds a number cannot be read, and its value is not shown', () => {
		expect(unreadableOf([{ Phone: '', Mobile: '', Other: '087 100 0002' }])).toEqual([
			'[0]: its phone fields (Phone, Mobile) are empty, but Other holds a number',
		]);
		expect(unreadableOf({ json: { phone: null, id: 3538710000021, ref: '0871000003' } })).toEqual([
			'json: its phone fields (phone) are empty, but id, ref hold numbers',
		]);
		expect(numbersOf([{ Phone: '', Other: '087 100 0002' }])).toEqual([]);
	});

	it('reads rows with the Default Country Code: lost zeros and national forms of that country', () => {
		expect(numbersOf([{ Phone: '', Mobile: 7911123456 }], '44')).toEqual([
			'447911123456',
			'7911123456',
		]);
		expect(numbersOf([{ 'Téléphone portable': '06 12 34 56 78' }], '33')).toEqual(['33612345678']);
		expect(numbersOf('7911123456, 07911 123457', '44')).toEqual([
			'447911123456',
			'447911123457',
			'7911123456',
		]);
	});

	it("reads national forms by the country's own trunk prefix: 06 in Hungary, 8 in Russia and Belarus", () => {
		expect(numbersOf([{ Telefon: '06 30 123 4567' }], '36')).toEqual(['36301234567']);
		expect(numbersOf('8 (912) 345-67-89', '7')).toContain('79123456789');
		expect(numbersOf('8 029 491-19-11', '375')).toContain('375294911911');
		// A lost 06 and Moscow's 8 495… (also +84 951… as written): every reading is excluded.
		expect(numbersOf('30 123 4567', '36')).toContain('36301234567');
		expect(numbersOf('8 495 123 45 67', '7')).toEqual(['74951234567', '84951234567']);
	});

	it("excludes a (0) opt-out in every reading where the 0 may be the number's own", () => {
		expect(numbersOf('+39 (0)312 345 6789')).toEqual(['3903123456789', '393123456789']);
		expect(numbersOf({ phone: '+47 (0)412 34 567' })).toEqual(['4741234567']);
	});
});
