import type { CountryCode } from 'libphonenumber-js';
import mobileExamples from 'libphonenumber-js/examples.mobile.json';
import {
	getCountries,
	getCountryCallingCode,
	getExampleNumber,
	parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';

import {
	countryCodeLength,
	MAX_MSISDN_LENGTH,
	normaliseMsisdn,
	numberAsWritten,
	splitRecipients,
	suppressionForms,
	toMsisdn,
} from '../../../../nodes/Phonovation/domain/phoneNumbers';

/** Google's numbering metadata (libphonenumber-js) reads each number; its E.164 form minus "+" is the oracle. */
function oracleMsisdn(input: string, region: CountryCode): string | undefined {
	return parsePhoneNumberFromString(input, region)?.number.replace(/^\+/, '');
}

/** With the full metadata, validity checks each country's number ranges, not only lengths. */
function oracleValid(input: string, region: CountryCode): boolean {
	return parsePhoneNumberFromString(input, region)?.isValid() ?? false;
}

/** The metadata's national (trunk) prefix of a country; slot 5 of its compressed record. */
function nationalPrefixOf(country: CountryCode): unknown {
	return (metadata.countries as unknown as Record<string, unknown[]>)[country][5];
}

const NON_GEOGRAPHIC_CODES = Object.keys(
	(metadata as unknown as { nonGeographic: object }).nonGeographic,
);

const REGION_OF: Record<string, CountryCode> = { '353': 'IE', '44': 'GB' };

interface ValidCase {
	input: string;
	defaultCountryCode?: string;
	/** Written without + or 00 but already international: the oracle reads it with its "+" restored. */
	bareInternational?: true;
}

const VALID: ValidCase[] = [
	// Irish mobiles and landlines, national form
	{ input: '087 123 4567' },
	{ input: '0871234567' },
	{ input: '083-123-4567' },
	{ input: '086.123.4567' },
	{ input: '(087) 123-4567' },
	{ input: '(01) 234 5678' },
	{ input: '021 123 4567' },
	{ input: '0761 234567' },
	{ input: '(0)87 123 4567' },
	{ input: '  089 123 4567  ' },
	// Irish, international forms
	{ input: '+353 87 123 4567' },
	{ input: '+353871234567' },
	{ input: '00353 87 1234567' },
	{ input: '353871234567' },
	{ input: '+353 (0)87 123 4567' },
	{ input: '+353 (0) 1 234 5678' },
	{ input: '00353 (0)21 123 4567' },
	{ input: '+353 087 123 4567' },
	{ input: '+353-1-234-5678' },
	// United Kingdom
	{ input: '07911 123456', defaultCountryCode: '44' },
	{ input: '020 7946 0018', defaultCountryCode: '44' },
	{ input: '+44 7911 123456' },
	{ input: '+44 (0)20 7946 0018' },
	{ input: '0044 20 7946 0018' },
	{ input: '+44 07911 123456' },
	{ input: '447911123456', bareInternational: true },
	// France
	{ input: '+33 6 12 34 56 78' },
	{ input: '+33 (0)6 12 34 56 78' },
	{ input: '0033 612345678' },
	{ input: '33612345678', bareInternational: true },
	// United States
	{ input: '+1 (202) 456-1111' },
	{ input: '+1 202.456.1111' },
	{ input: '001 202 456 1111' },
	{ input: '12024561111', bareInternational: true },
];

describe('normaliseMsisdn: accepted numbers match libphonenumber', () => {
	it.each(VALID)(
		'$input (default country $defaultCountryCode)',
		({ input, defaultCountryCode, bareInternational }) => {
			const country = defaultCountryCode ?? '353';
			const expected = bareInternational
				? oracleMsisdn(`+${input}`, REGION_OF[country])
				: oracleMsisdn(input, REGION_OF[country]);
			expect(expected).toMatch(/^\d+$/);

			const result = normaliseMsisdn(input, defaultCountryCode);

			expect(result).toEqual({ ok: true, input, msisdn: expected });
		},
	);

	it('treats national numbers as Irish when no default country is given', () => {
		expect(normaliseMsisdn('087 123 4567')).toEqual(normaliseMsisdn('087 123 4567', '353'));
		expect(normaliseMsisdn('087 123 4567', '44')).not.toEqual(normaliseMsisdn('087 123 4567'));
	});

	it('accepts the default country code written with + or 00', () => {
		const expected = oracleMsisdn('07911 123456', 'GB');
		expect(normaliseMsisdn('07911 123456', '+44')).toMatchObject({ ok: true, msisdn: expected });
		expect(normaliseMsisdn('07911 123456', '0044')).toMatchObject({ ok: true, msisdn: expected });
	});

	it('accepts exactly 20 digits, the provider limit', () => {
		const twenty = `+${'4'.repeat(MAX_MSISDN_LENGTH)}`;
		expect(MAX_MSISDN_LENGTH).toBe(20);
		expect(normaliseMsisdn(twenty)).toMatchObject({ ok: true, msisdn: '4'.repeat(20) });
	});
});

describe('normaliseMsisdn: rejected numbers say what is wrong', () => {
	it.each([
		{ input: '087 ABC 4567', reason: /contains letters/ },
		{ input: 'tel:+353871234567', reason: /contains letters/ },
		{ input: '087 123 4567 ext 12', reason: /contains letters/ },
		{ input: '087#1234567', reason: /contains "#"/ },
		{ input: '12345', reason: /^too short \(5 digits, min 8\)$/ },
		{ input: '+44 1234', reason: /^too short \(6 digits, min 8\)$/ },
		{ input: '087 123', reason: /too short/ },
		{ input: '+353 87 123 4567 8901 2345 678', reason: /^too long \(23 digits, max 20\)$/ },
		{ input: '0871234567123456789012', reason: /^too long \(24 digits, max 20\)$/ },
		{ input: '', reason: /empty/ },
		{ input: '   ', reason: /empty/ },
		{ input: '--', reason: /no digits/ },
		{ input: '353+871234567', reason: /\+ is only allowed at the start/ },
		{ input: '+0871234567', reason: /country prefix/ },
		{ input: '00087 123 4567', reason: /^country prefix cannot start with 0$/ },
		{ input: '000871234567', reason: /^country prefix cannot start with 0$/ },
		// A UK mobile in national form is not Irish: sending it as 3537911… would reach nobody.
		{
			input: '07911 123456',
			reason: /^no country prefix: national numbers other than Irish 0… need one$/,
		},
		{ input: '020 7946 0018', reason: /^no country prefix/ },
		// An Irish mobile whose 0 a spreadsheet dropped.
		{ input: '871234567', reason: /^no country prefix: .*Irish mobile without its leading 0/ },
	])('$input → $reason', ({ input, reason }) => {
		const result = normaliseMsisdn(input);
		expect(result.ok).toBe(false);
		expect(result.input).toBe(input);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});

	it('rejects a default country code that is not a country code', () => {
		const result = normaliseMsisdn('087 123 4567', 'IE');
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(/default country code "IE"/);
	});
});

describe('splitRecipients', () => {
	it.each([
		{ shape: 'one number', value: '087 123 4567', expected: ['087 123 4567'] },
		{
			shape: 'comma list',
			value: '0871234567, +44 7911 123456 ,33612345678',
			expected: ['0871234567', '+44 7911 123456', '33612345678'],
		},
		{
			shape: 'semicolon list',
			value: '0871234567;0861234567',
			expected: ['0871234567', '0861234567'],
		},
		{
			shape: 'newline list with CRLF and blank lines',
			value: '0871234567\r\n\r\n 0861234567 \n',
			expected: ['0871234567', '0861234567'],
		},
		{
			shape: 'mixed separators and empty entries',
			value: ' ,0871234567;;\n,0861234567, ',
			expected: ['0871234567', '0861234567'],
		},
		{ shape: 'JS number', value: 353871234567, expected: ['353871234567'] },
		{
			shape: 'array of strings and numbers',
			value: ['0871234567', 447911123456],
			expected: ['0871234567', '447911123456'],
		},
		{
			shape: 'nested array with lists inside',
			value: [['0871234567', ['0861234567;0831234567']], '', null],
			expected: ['0871234567', '0861234567', '0831234567'],
		},
		{ shape: 'null', value: null, expected: [] },
		{ shape: 'undefined', value: undefined, expected: [] },
		{ shape: 'empty string', value: '', expected: [] },
		{ shape: 'empty array', value: [], expected: [] },
	])('$shape', ({ value, expected }) => {
		expect(splitRecipients(value)).toEqual(expected);
	});

	it('trims a single entry too', () => {
		expect(splitRecipients('  +353 87 123 4567 ')).toEqual(['+353 87 123 4567']);
	});

	it('keeps spaces inside a number so "087 123 4567" stays one recipient', () => {
		expect(splitRecipients('087 123 4567; 086 765 4321')).toHaveLength(2);
	});

	it('hands an object over whole, so the rejection shows what was passed', () => {
		const [entry] = splitRecipients({ phone: '0871234567' });
		const result = normaliseMsisdn(entry);
		expect(result).toMatchObject({
			ok: false,
			input: '{"phone":"0871234567"}',
			reason: 'contains letters',
		});
	});

	it('feeds normaliseMsisdn: every entry of a mixed list normalises like the oracle reads it', () => {
		const entries = splitRecipients('087 123 4567, +44 7911 123456; 0033 612345678');
		expect(entries.map((entry) => normaliseMsisdn(entry))).toEqual(
			entries.map((entry) => ({ ok: true, input: entry, msisdn: oracleMsisdn(entry, 'IE') })),
		);
	});
});

describe('spreadsheet floats and scientific notation', () => {
	it.each([
		{ input: '353871111111.0', msisdn: '353871111111' },
		{ input: '353871111111.00', msisdn: '353871111111' },
		{ input: ' 353871111111.0 ', msisdn: '353871111111' },
		{ input: '+353871111111.0', msisdn: '353871111111' },
		{ input: '0871111111.0', msisdn: '353871111111' },
		{ input: '447911123456.0', msisdn: '447911123456' },
		// Dots written between groups are still formatting.
		{ input: '087.111.1111', msisdn: '353871111111' },
		{ input: '087.1111111', msisdn: '353871111111' },
		{ input: '0871111.111', msisdn: '353871111111' },
	])('$input → $msisdn, never with the decimal 0 as a digit', ({ input, msisdn }) => {
		expect(normaliseMsisdn(input)).toEqual({ ok: true, input, msisdn });
		expect(toMsisdn(input, '353')).toBe(msisdn);
	});

	it('the JS number 353871111111 is the recipient 353871111111', () => {
		const [entry] = splitRecipients(353871111111);
		expect(entry).toBe('353871111111');
		expect(toMsisdn(entry, '353')).toBe('353871111111');
		expect(
			splitRecipients([353871111111, '353871111111.0']).map((e) => toMsisdn(e, '353')),
		).toEqual(['353871111111', '353871111111']);
	});

	it.each([
		{
			input: '3.53871E+11',
			reason: 'scientific notation: digits are lost (format the spreadsheet column as text)',
		},
		{
			input: '3.53871e11',
			reason: 'scientific notation: digits are lost (format the spreadsheet column as text)',
		},
		{
			input: '3,53871E+11',
			reason: 'scientific notation: digits are lost (format the spreadsheet column as text)',
		},
		{
			input: '3.53871111111E+11',
			reason: 'scientific notation: digits are lost (format the spreadsheet column as text)',
		},
		{ input: '353871111111.5', reason: 'not a whole number (it has a decimal part)' },
		{ input: '35387111111.10', reason: 'not a whole number (it has a decimal part)' },
		{ input: '8711111.5', reason: 'not a whole number (it has a decimal part)' },
	])('$input is refused: $reason', ({ input, reason }) => {
		expect(normaliseMsisdn(input)).toEqual({ ok: false, input, reason });
		expect(toMsisdn(input, '353')).toBeUndefined();
	});

	it.each([
		[353871111111, '353871111111'],
		[353871111111.5, '353871111111.5'],
		// Above 2^53 the last digits are already gone: written so that the reader refuses it.
		[12345678901234567890, '1.2345678901234567e+19'],
		[1e21, '1e+21'],
		[Number.NaN, 'NaN'],
	])('a JS number %p is written %p', (value, written) => {
		expect(numberAsWritten(value)).toBe(written);
		expect(splitRecipients(value)).toEqual([written]);
	});

	it('a JS number too large to hold its digits is refused, not sent to a rounded number', () => {
		const [entry] = splitRecipients(98765432109876543210);
		expect(normaliseMsisdn(entry)).toMatchObject({
			ok: false,
			reason: expect.stringMatching(/^scientific notation/),
		});
	});
});

describe('normaliseMsisdn: the trunk 0 after a country code', () => {
	it.each([
		{ input: '+33 06 12 34 56 78', msisdn: '33612345678' },
		{ input: '0033 (0)6 12 34 56 78', msisdn: '33612345678' },
		{ input: '+49 0151 1234 5678', msisdn: '4915112345678' },
		{ input: '+49 (0)30 123456', msisdn: '4930123456' },
		{ input: '+1 202 456 1111', msisdn: '12024561111' },
		// Italian landlines keep their 0 after +39: it is part of the number, not a trunk prefix.
		{ input: '+39 06 1234 5678', msisdn: '390612345678' },
		{ input: '+225 07 12 34 56 78', msisdn: '2250712345678' },
	])('$input → $msisdn, as libphonenumber reads it', ({ input, msisdn }) => {
		expect(oracleMsisdn(input, 'IE')).toBe(msisdn);
		expect(normaliseMsisdn(input)).toEqual({ ok: true, input, msisdn });
	});

	it('keeps the 0 of an Italian landline written nationally with Default Country Code 39', () => {
		expect(normaliseMsisdn('06 1234 5678', '39')).toMatchObject({
			ok: true,
			msisdn: oracleMsisdn('06 1234 5678', 'IT'),
		});
	});

	it("drops a 0 written after the code of every country whose numbers take a trunk 0 (libphonenumber's metadata and examples)", () => {
		const checked: string[] = [];
		for (const country of getCountries()) {
			const example = getExampleNumber(country, mobileExamples);
			const msisdn = `${example?.countryCallingCode}${example?.nationalNumber}`;
			if (!example || msisdn.length < 8 || nationalPrefixOf(country) !== '0') continue;
			const input = `+${example.countryCallingCode} 0${example.nationalNumber}`;
			expect({ input, result: normaliseMsisdn(input) }).toEqual({
				input,
				result: { ok: true, input, msisdn },
			});
			checked.push(country);
		}
		expect(checked.length).toBeGreaterThan(100);
	});

	it('reads the country calling code of every country and non-geographic service libphonenumber knows', () => {
		const codes = new Set([
			...getCountries().map((c) => getCountryCallingCode(c)),
			...NON_GEOGRAPHIC_CODES,
		]);
		for (const code of codes) {
			const national = '9'.repeat(9);
			expect({ code, length: countryCodeLength(code + national) }).toEqual({
				code,
				length: code.length,
			});
		}
		expect(codes.size).toBeGreaterThan(200);
	});
});

describe('normaliseMsisdn: Irish numbers fit the Irish plan in every written form', () => {
	const mobileShortBy1 = 'too short (8 digits after 353, Irish numbers starting 8 have 9 to 10)';
	it.each([
		['+353 87 123 456', mobileShortBy1],
		['00353 87 123 456', mobileShortBy1],
		['35387123456', mobileShortBy1],
		['087 123 456', 'too short (8 digits after the 0, Irish numbers starting 08 have 9 to 10)'],
		[
			'+353 87 123 456 789',
			'too long (11 digits after 353, Irish numbers starting 8 have 9 to 10)',
		],
		['+353 76 123 45', 'too short (7 digits after 353, Irish numbers starting 7 have 9)'],
		['+353 31 234 5678', 'not an Irish number: nothing in the Irish plan starts with 3 after 353'],
	])('%s → %s', (input, reason) => {
		expect(oracleValid(input, 'IE')).toBe(false);
		expect(normaliseMsisdn(input)).toEqual({ ok: false, input, reason });
	});
});

describe('normaliseMsisdn: invisible formatting from Outlook, WhatsApp and web pages', () => {
	it.each([
		['LTR embedding around the number (U+202A…U+202C)', '\u202A+353 87 123 4567\u202C'],
		['isolates (U+2066…U+2069)', '\u2068\u2066087 123 4567\u2069\u2069'],
		['LRM/RLM marks', '\u200E087\u200F 123 4567'],
		['zero-width space and BOM', '\uFEFF087\u200B1234567'],
		['soft hyphen', '087\u00AD123\u00AD4567'],
		['no-break and narrow no-break spaces', '087\u00A0123\u202F4567'],
		['RLO override (U+202E) and PDF', '\u202E+353871234567\u202C'],
	])('%s: read as the number it shows', (_name, input) => {
		expect(normaliseMsisdn(input)).toEqual({ ok: true, input, msisdn: '353871234567' });
	});

	it.each([
		{ input: '087 123\u2060 4567', reason: 'contains U+2060' },
		{ input: '087\u0007 123 4567', reason: 'contains U+0007' },
		{ input: '087 123 4567\u0301', reason: 'contains U+0301' },
		{ input: '087 123 4567 ✓', reason: 'contains "✓"' },
		{ input: '087 123\u200D4567', reason: 'contains U+200D' },
	])(
		'names a character it cannot read by its code point when invisible: $reason',
		({ input, reason }) => {
			const result = normaliseMsisdn(input);
			expect(result).toEqual({ ok: false, input, reason });
			if (!result.ok) expect(result.reason).toMatch(/^[\x20-\x7E✓]+$/);
		},
	);

	it('keeps an invisible mark out of every reason, whatever else is wrong', () => {
		for (const input of [
			'\u202A087 123 456\u202C',
			'\u200B+353 31 234 5678',
			'\u2066x\u2069',
			'\u200E12345',
		]) {
			const result = normaliseMsisdn(input);
			expect(result.ok).toBe(false);
			if (!result.ok)
				expect({ input, reason: result.reason }).toEqual({
					input,
					reason: expect.stringMatching(/^[\x20-\x7E…]+$/),
				});
		}
	});
});

describe('suppressionForms: what an Exclude Numbers entry stands for', () => {
	it.each([
		{
			entry: '871234567',
			forms: ['353871234567'],
			why: 'an Irish mobile whose 0 a spreadsheet dropped',
		},
		{ entry: ' 871 234 567 ', forms: ['353871234567'], why: 'the same, spaced' },
		{ entry: '0871234567', forms: ['353871234567'], why: 'national form' },
		{ entry: '+353 (0)87 123 4567', forms: ['353871234567'], why: 'international form' },
		{
			entry: '\u202A087 123 4567\u202C',
			forms: ['353871234567'],
			why: 'pasted with direction marks',
		},
		{
			entry: '07911 123456',
			forms: [],
			why: 'a UK mobile in national form under the Irish default',
		},
		{ entry: '+44 7911 123456', forms: ['447911123456'], why: 'a UK mobile in international form' },
		{
			entry: '821234567',
			forms: ['821234567', '353821234567'],
			why: 'read as written and as a lost-0 Irish number',
		},
		{ entry: '+871234567', forms: ['871234567'], why: 'written with +: not a lost 0' },
		{ entry: '087 123 456', forms: [], why: 'a digit short' },
		{ entry: 'opted out', forms: [], why: 'no number' },
		{ entry: '', forms: [], why: 'empty' },
	])('$entry → $forms ($why)', ({ entry, forms }) => {
		expect(suppressionForms(entry, '353')).toEqual(forms);
	});

	it('follows the Default Country Code for national entries and still catches the lost Irish 0', () => {
		expect(suppressionForms('07911 123456', '44')).toEqual(['447911123456']);
		expect(suppressionForms('871234567', '44')).toEqual([
			'871234567',
			'44871234567',
			'353871234567',
		]);
	});

	it('reads nothing when the Default Country Code is not a country code', () => {
		expect(suppressionForms('0871234567', 'IE')).toEqual([]);
	});
});

describe('normaliseMsisdn: digits without +, 00 or a leading 0 under a Default Country Code other than Irish', () => {
	it.each([
		// Another country's number as written, nobody's at home: sent as written, as before.
		{ input: '447911123456', code: '33', msisdn: '447911123456' },
		{ input: '33612345678', code: '44', msisdn: '33612345678' },
		{ input: '353871234567', code: '44', msisdn: '353871234567' },
		// North America: the trunk 1 is also the country code.
		{ input: '12024561111', code: '1', msisdn: '12024561111' },
		{ input: '1 (202) 456-1111', code: '1', msisdn: '12024561111' },
		// Countries without a trunk prefix: the number as written there, nobody's number as written.
		{ input: '612 345 678', code: '34', msisdn: '34612345678' },
		{ input: '912345678', code: '34', msisdn: '34912345678' },
		{ input: '312 345 6789', code: '39', msisdn: '393123456789' },
		{ input: '4155551234', code: '1', msisdn: '14155551234' },
		{ input: '612 345 678', code: '48', msisdn: '48612345678' },
		// Nobody's as written now that every country's plan is known: +20 2456 1111 is no Egyptian
		// number, +221 234 567 no Senegalese one.
		{ input: '(202) 456-1111', code: '1', msisdn: '12024561111' },
		{ input: '22 123 45 67', code: '48', msisdn: '48221234567' },
	])('$input under $code → $msisdn', ({ input, code, msisdn }) => {
		expect(normaliseMsisdn(input, code)).toEqual({ ok: true, input, msisdn });
		expect(toMsisdn(input.replace(/\D/g, ''), code)).toBe(msisdn);
	});

	it.each([
		{
			input: '2031234567',
			code: '44',
			reason:
				'ambiguous: 2031234567 as written (country code 20) or a UK number without its leading 0 (442031234567); write it with + and its country code',
		},
		{
			input: '15112345678',
			code: '49',
			reason:
				'ambiguous: 15112345678 as written (country code 1) or a German number without its leading 0 (4915112345678); write it with + and its country code',
		},
		{
			input: '(203) 456-1111',
			code: '1',
			reason:
				'ambiguous: 2034561111 as written (country code 20) or a North American number as written there (12034561111); write it with + and its country code',
		},
		{
			input: '3612345678',
			code: '39',
			reason:
				'ambiguous: 3612345678 as written (country code 36) or an Italian number as written there (393612345678); write it with + and its country code',
		},
		{
			input: '46 123 45 67',
			code: '48',
			reason:
				'ambiguous: 461234567 as written (country code 46) or a Polish number as written there (48461234567); write it with + and its country code',
		},
	])('$input under $code could be two numbers: refused naming both', ({ input, code, reason }) => {
		expect(normaliseMsisdn(input, code)).toEqual({ ok: false, input, reason });
		expect(toMsisdn(input.replace(/\D/g, ''), code)).toBeUndefined();
	});

	it.each([
		{
			input: '612345678',
			code: '33',
			reason:
				'no country prefix: looks like a French number without its leading 0 (33612345678); write it with its 0, or with + and its country code',
		},
		// +7 911 123 456 and +20 7946 0018 are nobody's: only the UK readings are numbers.
		{
			input: '7911123456',
			code: '44',
			reason:
				'no country prefix: looks like a UK number without its leading 0 (447911123456); write it with its 0, or with + and its country code',
		},
		{
			input: '2079460018',
			code: '44',
			reason:
				'no country prefix: looks like a UK number without its leading 0 (442079460018); write it with its 0, or with + and its country code',
		},
		{
			input: '412345678',
			code: '61',
			reason:
				'no country prefix: looks like an Australian number without its leading 0 (61412345678); write it with its 0, or with + and its country code',
		},
		{
			input: '871234567',
			code: '44',
			// 0871 is a UK non-geographic number: the digits are one, without its 0.
			reason:
				'no country prefix: looks like a UK number without its leading 0 (44871234567); write it with its 0, or with + and its country code',
		},
		{
			input: '3312345678',
			code: '49',
			reason:
				'no country prefix: looks like a German number without its leading 0 (493312345678); write it with its 0, or with + and its country code',
		},
		// Bare international digits that are also a number of the default country, landlines
		// included, are never guessed.
		{
			input: '353871234567',
			code: '49',
			reason:
				'ambiguous: 353871234567 as written (country code 353) or a German number without its leading 0 (49353871234567); write it with + and its country code',
		},
		{
			input: '49 19 57 404',
			code: '352',
			reason:
				'ambiguous: 491957404 as written (country code 49) or a number of Luxembourg as written there (352491957404); write it with + and its country code',
		},
		{
			input: '35387123456',
			code: '44',
			reason: 'too short (8 digits after 353, Irish numbers starting 8 have 9 to 10)',
		},
		{ input: '1234567', code: '44', reason: 'too short (7 digits, min 8)' },
		// An Italian landline keeps its 0: without it, it is neither Italian nor, as written, Australian.
		{
			input: '612345678',
			code: '39',
			reason:
				'no country prefix: as written it is no Australian number (7 digits after 61 fit no Australian number)',
		},
	])('$input under $code is refused: $reason', ({ input, code, reason }) => {
		expect(normaliseMsisdn(input, code)).toEqual({ ok: false, input, reason });
		expect(toMsisdn(input, code)).toBeUndefined();
	});

	it('reads the Irish default as before: only an Irish mobile without its 0 is refused, other bare digits are international', () => {
		expect(normaliseMsisdn('871234567', '353')).toMatchObject({
			ok: false,
			reason: 'no country prefix: looks like an Irish mobile without its leading 0',
		});
		expect(normaliseMsisdn('7911123456', '353')).toMatchObject({ ok: true, msisdn: '7911123456' });
		expect(normaliseMsisdn('12345678', '353')).toMatchObject({ ok: true, msisdn: '12345678' });
	});
});

describe("normaliseMsisdn: a national number must fit the Default Country Code's plan", () => {
	it.each([
		{ input: '07911 123456', code: '44', msisdn: '447911123456' },
		{ input: '01 23 45 67 89', code: '33', msisdn: '33123456789' },
		{ input: '0151 1234 5678', code: '49', msisdn: '4915112345678' },
		{ input: '06 1234 5678', code: '39', msisdn: '390612345678' },
		{ input: '0412 345 678', code: '61', msisdn: '61412345678' },
	])('$input under $code → $msisdn', ({ input, code, msisdn }) => {
		expect(normaliseMsisdn(input, code)).toEqual({ ok: true, input, msisdn });
	});

	it.each([
		{ input: '07911 12345', code: '44', adjective: 'UK' },
		{ input: '06 12 34 56 789', code: '33', adjective: 'French' },
		{ input: '0412 345 67', code: '61', adjective: 'Australian' },
	])('$input under $code fits no $adjective number', ({ input, code, adjective }) => {
		expect(normaliseMsisdn(input, code)).toEqual({
			ok: false,
			input,
			reason: `no country prefix: fits no ${adjective} number in national form (numbers of other countries need their country code)`,
		});
		expect(toMsisdn(input.replace(/\D/g, ''), code)).toBeUndefined();
	});

	it("checks every country's plan, not only the length", () => {
		expect(normaliseMsisdn('067 123 4567', '380')).toMatchObject({
			ok: true,
			msisdn: '380671234567',
		});
		expect(normaliseMsisdn('0671234567890', '380')).toEqual({
			ok: false,
			input: '0671234567890',
			reason:
				'no country prefix: fits no number of Ukraine in national form (numbers of other countries need their country code)',
		});
	});
});

describe('suppressionForms: every number an entry may be, in every country', () => {
	it.each([
		{
			entry: '7911123456',
			code: '44',
			forms: ['7911123456', '447911123456'],
			why: 'as written (+7) and a UK mobile that lost its 0',
		},
		{ entry: '07911 123456', code: '44', forms: ['447911123456'], why: 'UK national form' },
		{
			entry: '2079460018',
			code: '44',
			forms: ['2079460018', '442079460018'],
			why: 'as written (+20) and a London number that lost its 0',
		},
		{ entry: '06 12 34 56 78', code: '33', forms: ['33612345678'], why: 'French national form' },
		{
			entry: '6 12 34 56 78',
			code: '33',
			forms: ['612345678', '33612345678'],
			why: 'a French mobile that lost its 0',
		},
		{
			entry: '15112345678',
			code: '49',
			forms: ['15112345678', '4915112345678'],
			why: 'as written (+1) and a German mobile that lost its 0',
		},
		{
			entry: '612345678',
			code: '34',
			forms: ['34612345678', '612345678'],
			why: 'Spanish as written there, and as written',
		},
		{
			entry: '312 345 6789',
			code: '39',
			forms: ['393123456789', '3123456789', '3903123456789'],
			why: 'Italian mobile, as written, and an Italian 0… number',
		},
		{
			entry: '612345678',
			code: '39',
			forms: ['612345678', '390612345678'],
			why: 'an Italian landline that lost its 0 keeps it',
		},
		{
			entry: '(203) 456-1111',
			code: '1',
			forms: ['2034561111', '12034561111'],
			why: 'as written (+20) and a US number',
		},
		{
			entry: '447911123456',
			code: '33',
			forms: ['447911123456'],
			why: 'a UK number as written is no French number',
		},
		{
			entry: '+7 911 123 456',
			code: '44',
			forms: ['7911123456'],
			why: 'written with +: not a lost 0',
		},
		{
			entry: '871234567',
			code: '33',
			forms: ['871234567', '33871234567', '353871234567'],
			why: 'also the Irish mobile that lost its 0',
		},
		{ entry: '07911 12345', code: '44', forms: [], why: 'no UK number: unreadable' },
	])('$entry under $code → $forms ($why)', ({ entry, code, forms }) => {
		expect(suppressionForms(entry, code)).toEqual(forms);
	});

	it('reads the Irish default as before, and a lost 0 of any Irish number, not only a mobile', () => {
		expect(suppressionForms('871234567', '353')).toEqual(['353871234567']);
		expect(suppressionForms('12345678', '353')).toEqual(['12345678', '35312345678']);
		expect(suppressionForms('447911123456', '353')).toEqual(['447911123456']);
	});

	it('never stands for a number too short or too long for the provider', () => {
		expect(suppressionForms('234567', '49')).toEqual(['49234567']);
		expect(suppressionForms('23456', '49')).toEqual([]);
	});
});
