import fc from 'fast-check';
import type { CountryCode } from 'libphonenumber-js';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';

import { COUNTRY_CALLING_CODES } from '../../../../nodes/Phonovation/domain/countryCodes';
import {
	fitsPlan,
	fitsWithoutZero,
	NATIONAL_NUMBERINGS,
	withArticle,
} from '../../../../nodes/Phonovation/domain/nationalNumbers';

/**
 * One country's record in the compressed metadata: [calling code, …, slot 2 general pattern, …, slot 5 trunk prefix,
 * …, slot 11 types].
 */
type CountryRecord = [string, string, string, number[], unknown, string | 0, ...unknown[]];
const RECORDS = metadata.countries as unknown as Record<string, CountryRecord>;
const REGIONS_OF = metadata.country_calling_codes as unknown as Record<string, CountryCode[]>;

/** Slot 11 of a record: [fixed line, mobile, …], each [pattern, lengths] or 0. */
const typePattern = (region: CountryCode, type: 0 | 1): string => {
	const types = RECORDS[region][11] as Array<[string, number[]?] | 0>;
	const pattern = types[type] ? (types[type] as [string])[0] : '';
	// North America has one pattern for fixed lines and mobiles.
	return pattern === '' && type === 1 ? typePattern(region, 0) : pattern;
};

/** Where landlines have any length from 5 to 13 digits, only mobiles are read as having lost their 0. */
const MOBILES_ONLY = new Set(['353', '49', '43', '46']);

const COVERED = [...NATIONAL_NUMBERINGS.keys()];
const RUN = { seed: 20_260_613, numRuns: 400 };

/** Numbers matching a libphonenumber pattern, as its own tests generate them. */
const matching = (pattern: string) => fc.stringMatching(new RegExp(`^(?:${pattern})$`));

describe('NATIONAL_NUMBERINGS: the countries whose numbers are read without a country code', () => {
	it('covers the countries the Default Country Code is documented for', () => {
		expect(COVERED.sort()).toEqual(
			[
				'1',
				'27',
				'31',
				'32',
				'33',
				'34',
				'351',
				'353',
				'39',
				'41',
				'43',
				'44',
				'45',
				'46',
				'47',
				'48',
				'49',
				'61',
				'64',
				'91',
			].sort(),
		);
		expect(COVERED.filter((code) => !COUNTRY_CALLING_CODES.has(code))).toEqual([]);
	});

	it.each(COVERED)(
		"+%s: the trunk prefix is libphonenumber's, for every region of the code",
		(code) => {
			const prefixes = new Set(REGIONS_OF[code].map((region) => RECORDS[region][5] || ''));
			expect([...prefixes]).toEqual([NATIONAL_NUMBERINGS.get(code)!.trunkPrefix]);
		},
	);

	it.each(COVERED)(
		"+%s: the plan takes every number of libphonenumber's general pattern of each region of the code",
		(code) => {
			for (const region of REGIONS_OF[code]) {
				fc.assert(
					fc.property(matching(RECORDS[region][2]), (nsn) => {
						expect({ region, nsn, fits: fitsPlan(code, nsn) }).toEqual({ region, nsn, fits: true });
					}),
					{ ...RUN, numRuns: 100 },
				);
			}
		},
	);

	it.each(COVERED)(
		'+%s: a number given without its 0, or as written there, is a number of the plan',
		(code) => {
			fc.assert(
				fc.property(matching(NATIONAL_NUMBERINGS.get(code)!.withoutZero), (nsn) => {
					expect({ nsn, fits: fitsPlan(code, nsn) }).toEqual({ nsn, fits: true });
				}),
				RUN,
			);
		},
	);

	it.each(COVERED)(
		'+%s: every valid mobile (and landline, where lengths tell them apart) is read without its 0',
		(code) => {
			const types: Array<0 | 1> = MOBILES_ONLY.has(code) ? [1] : [0, 1];
			for (const region of REGIONS_OF[code]) {
				for (const type of types.filter((t) => typePattern(region, t) !== '')) {
					fc.assert(
						fc.property(matching(typePattern(region, type)), (nsn) => {
							const valid = parsePhoneNumberFromString(`+${code}${nsn}`)?.isValid() ?? false;
							if (!valid || nsn.startsWith('0')) return;
							expect({ region, type, nsn, fits: fitsWithoutZero(code, nsn) }).toEqual({
								region,
								type,
								nsn,
								fits: true,
							});
						}),
						{ ...RUN, numRuns: 150 },
					);
				}
			}
		},
	);

	it('reads from a position to the end, so a number is checked in place', () => {
		expect(fitsPlan('44', '447911123456', 2)).toBe(true);
		expect(fitsPlan('44', '4479111234567', 2)).toBe(false);
		expect(fitsPlan('44', '447911123456', 1)).toBe(false);
		expect(fitsPlan('44', '7911123456')).toBe(true);
		// A country not covered is neither a fit nor a misfit.
		expect(fitsPlan('380', '671234567')).toBeUndefined();
		expect(fitsWithoutZero('380', '671234567')).toBe(false);
	});

	it.each([
		['Irish', 'an Irish'],
		['Italian', 'an Italian'],
		['Austrian', 'an Austrian'],
		['UK', 'a UK'],
		['North American', 'a North American'],
	])('%s → %s', (adjective, shown) => {
		expect(withArticle(adjective)).toBe(shown);
	});
});
