import fc from 'fast-check';
import type { CountryCode } from 'libphonenumber-js';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';

import { COUNTRY_CALLING_CODES } from '../../../../nodes/Phonovation/domain/countryCodes';
import type { Numbering } from '../../../../nodes/Phonovation/domain/nationalNumbers';
import {
	numberingAt,
	numberingOf,
	withArticle,
} from '../../../../nodes/Phonovation/domain/nationalNumbers';
import { normaliseMsisdn } from '../../../../nodes/Phonovation/domain/phoneNumbers';

/**
 * One country's record in the compressed metadata: [calling code, …, slot 2 general pattern, slot 3 possible
 * lengths, …, slot 5 trunk prefix, …, slot 11 types].
 */
type CountryRecord = [string, string, string, number[], unknown, string | 0, ...unknown[]];
const RECORDS = metadata.countries as unknown as Record<string, CountryRecord>;
const REGIONS_OF = metadata.country_calling_codes as unknown as Record<string, CountryCode[]>;
const CODES = Object.keys(REGIONS_OF);

/** Slot 11 of a record: [fixed line, mobile, …], each [pattern, lengths] or 0 (or an empty pattern). */
function typeOf(region: CountryCode, type: 0 | 1): [string, number[]] | undefined {
	const types = (RECORDS[region][11] ?? []) as Array<[string, number[]?] | 0>;
	const found = types[type];
	if (!found || !found[0]) return undefined;
	return [found[0], found[1] ?? RECORDS[region][3]];
}

const RUN = { seed: 20_260_613 };

/** Numbers matching a libphonenumber pattern, as its own tests generate them. */
const sample = (pattern: string, numRuns: number) =>
	fc.sample(fc.stringMatching(new RegExp(`^(?:${pattern})$`)), { ...RUN, numRuns });

const numbering = (code: string): Numbering => numberingOf(code)!;

describe("numberingOf: every country calling code's numbering, from libphonenumber's metadata", () => {
	it('covers every country calling code, and nothing else', () => {
		expect(CODES.filter((code) => numberingOf(code) === undefined)).toEqual([]);
		expect([...COUNTRY_CALLING_CODES].sort()).toEqual([...CODES].sort());
		for (const text of ['35', '0', '00', '0353', '353 ', '+353', '1876', '', '999', 'IE'])
			expect({ text, numbering: numberingOf(text) }).toEqual({ text, numbering: undefined });
	});

	it("takes its trunk prefix from the code's main region", () => {
		const differing = CODES.filter(
			(code) => numbering(code).trunkPrefix !== (RECORDS[REGIONS_OF[code][0]][5] || ''),
		);
		expect(differing).toEqual([]);
		expect(['353', '36', '7', '375', '1', '39'].map((code) => numbering(code).trunkPrefix)).toEqual(
			['0', '06', '8', '8', '1', ''],
		);
	});

	it("takes every number of libphonenumber's general pattern of every region of the code", () => {
		const missed: string[] = [];
		for (const code of CODES)
			for (const region of REGIONS_OF[code])
				for (const nsn of sample(RECORDS[region][2], 25))
					if (!numbering(code).fits(nsn)) missed.push(`${region} ${nsn}`);
		expect(missed).toEqual([]);
	});

	it('takes every valid mobile, and fixed line where these have at most 3 lengths, as written at home', () => {
		const missed: string[] = [];
		for (const code of CODES)
			for (const region of REGIONS_OF[code]) {
				const fixed = typeOf(region, 0);
				// North America keeps one pattern for fixed lines and mobiles, under fixed lines.
				const types = [
					typeOf(region, 1) ?? fixed,
					fixed && fixed[1].length <= 3 ? fixed : undefined,
				];
				for (const [pattern] of types.filter((type) => type !== undefined))
					for (const nsn of sample(pattern, 15)) {
						const valid = parsePhoneNumberFromString(`+${code}${nsn}`)?.isValid() ?? false;
						if (valid && !nsn.startsWith('0') && !numbering(code).fitsHome(nsn))
							missed.push(`${region} ${nsn}`);
					}
			}
		expect(missed).toEqual([]);
	});

	it('leaves out fixed lines of many lengths, which would take in most international numbers', () => {
		// German landlines have 5 to 15 digits: 447911123456 is also "0447 911123456".
		expect(numbering('49').fitsHome('447911123456')).toBe(false);
		expect(numbering('49').fitsHome('15112345678')).toBe(true);
		expect(numbering('43').fitsHome('6641234567')).toBe(true);
	});

	it('knows where numbers may start with 0, so that a 0 there is no trunk prefix', () => {
		const keepingZero = CODES.filter((code) => numbering(code).keepsZero);
		expect(keepingZero.sort()).toEqual(
			[
				'39',
				'47',
				'62',
				'66',
				'81',
				'82',
				'91',
				'225',
				'226',
				'227',
				'229',
				'241',
				'242',
				'247',
				'250',
				'267',
				'268',
				'359',
				'378',
				'501',
				'507',
				'598',
				'676',
				'679',
				'687',
				'853',
				'974',
				'992',
			].sort(),
		);
		const startingWithZero = CODES.filter((code) =>
			REGIONS_OF[code].some((region) =>
				sample(RECORDS[region][2], 40).some((nsn) => nsn.startsWith('0')),
			),
		);
		expect(startingWithZero.filter((code) => !numbering(code).keepsZero)).toEqual([]);
	});

	it('reads from a position to the end, so a number is checked in place', () => {
		expect(numbering('44').fits('447911123456', 2)).toBe(true);
		expect(numbering('44').fits('4479111234567', 2)).toBe(false);
		expect(numbering('44').fits('447911123456', 1)).toBe(false);
		expect(numbering('44').fits('7911123456')).toBe(true);
		expect(numbering('380').fits('671234567')).toBe(true);
		expect(numbering('380').fits('6712345678')).toBe(false);
	});

	it('finds the numbering of the code at the start of international digits', () => {
		expect(numberingAt('447911123456', 2)).toBe(numberingOf('44'));
		expect(numberingAt('353871234567', 3)).toBe(numberingOf('353'));
		expect(numberingAt('79123456789', 1)).toBe(numberingOf('7'));
		expect(numberingAt('351234567', 2)).toBeUndefined();
		expect(numberingAt('0871234567', 1)).toBeUndefined();
	});

	it.each([
		{ code: '36', digits: '06301234567', start: 2 },
		{ code: '7', digits: '89123456789', start: 1 },
		{ code: '7', digits: '88005553535', start: 1 },
		// Belarus: 8 200… keeps its 8 (libphonenumber's example): without 80 it is no number, with it one.
		{ code: '375', digits: '82004910060', start: 0 },
		{ code: '375', digits: '80291234567', start: 2 },
		{ code: '375', digits: '0291234567', start: 1 },
		{ code: '39', digits: '0612345678', start: 0 },
		{ code: '34', digits: '612345678', start: 0 },
		// Argentina: 0 11 15 2345-6789 is the mobile 9 11 2345-6789.
		{ code: '54', digits: '0111523456789', start: '91123456789' },
		// San Marino: a 6-digit local number takes its 0549.
		{ code: '378', digits: '123456', start: 0 },
		{ code: '378', digits: '812345', start: '0549812345' },
	])(
		'$code: the national significant number of $digits starts at $start',
		({ code, digits, start }) => {
			expect(numbering(code).nationalStart(digits, 0)).toBe(start);
		},
	);

	it('keeps the trunk prefix where the number without it would be too short (as libphonenumber does)', () => {
		// Hungary: 06 1234 567 without its 06 has 6 digits; numbers have 8 or 9.
		expect(numbering('36').nationalStart('061234567', 0)).toBe(0);
		expect(numbering('36').nationalStart('0612345678', 0)).toBe(2);
	});
});

describe('names in reasons', () => {
	it.each([
		['44', 'UK number'],
		['353', 'Irish number'],
		['1', 'North American number'],
		['36', 'number of Hungary'],
		['7', 'number of Russia or Kazakhstan'],
		['590', 'number of Guadeloupe, St. Barthélemy or St. Martin'],
	])('+%s: %s', (code, noun) => {
		expect(numbering(code).noun).toBe(noun);
	});

	it.each([
		['Irish number', 'an Irish number'],
		['Italian number', 'an Italian number'],
		['Austrian number', 'an Austrian number'],
		['UK number', 'a UK number'],
		['North American number', 'a North American number'],
		['number of Hungary', 'a number of Hungary'],
	])('%s → %s', (noun, shown) => {
		expect(withArticle(noun)).toBe(shown);
	});
});

describe("the Irish plan's lengths by first digit (phoneNumbers.ts) are the generated Irish plan's", () => {
	it('accepts an Irish number in international form exactly when it fits the Irish plan', () => {
		const irish = fc.stringMatching(/^[1-9]\d{4,11}$/);
		fc.assert(
			fc.property(irish, (nsn) => {
				const fits = numbering('353').fits(nsn);
				expect({ nsn, ok: normaliseMsisdn(`+353${nsn}`).ok }).toEqual({ nsn, ok: fits });
			}),
			{ ...RUN, numRuns: 3000 },
		);
	});
});
