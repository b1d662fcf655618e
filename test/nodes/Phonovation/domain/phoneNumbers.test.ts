import type { CountryCode } from 'libphonenumber-js';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

import { MAX_MSISDN_LENGTH, normaliseMsisdn, splitRecipients } from '../../../../nodes/Phonovation/domain/phoneNumbers';

/** Google's numbering metadata (libphonenumber-js) reads each number; its E.164 form minus "+" is the oracle. */
function oracleMsisdn(input: string, region: CountryCode): string | undefined {
	return parsePhoneNumberFromString(input, region)?.number.replace(/^\+/, '');
}

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
		// A UK mobile in national form is not Irish: sending it as 3537911… would reach nobody.
		{ input: '07911 123456', reason: /^no country prefix: national numbers other than Irish 0… need one$/ },
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
		{ shape: 'semicolon list', value: '0871234567;0861234567', expected: ['0871234567', '0861234567'] },
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

	it('keeps spaces inside a number so "087 123 4567" stays one recipient', () => {
		expect(splitRecipients('087 123 4567; 086 765 4321')).toHaveLength(2);
	});

	it('hands an object over whole, so the rejection shows what was passed', () => {
		const [entry] = splitRecipients({ phone: '0871234567' });
		const result = normaliseMsisdn(entry);
		expect(result).toMatchObject({ ok: false, input: '{"phone":"0871234567"}', reason: 'contains letters' });
	});

	it('feeds normaliseMsisdn: every entry of a mixed list normalises like the oracle reads it', () => {
		const entries = splitRecipients('087 123 4567, +44 7911 123456; 0033 612345678');
		expect(entries.map((entry) => normaliseMsisdn(entry))).toEqual(
			entries.map((entry) => ({ ok: true, input: entry, msisdn: oracleMsisdn(entry, 'IE') })),
		);
	});
});
