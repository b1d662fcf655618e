import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';

import { COUNTRY_CALLING_CODES } from '../../../../nodes/Phonovation/domain/countryCodes';

/** Google's numbering metadata: the calling code of every country and territory it knows. */
const LIBPHONENUMBER_CODES = new Set(
	getCountries().map((country) => getCountryCallingCode(country)),
);
const GLOBAL_SERVICES = Object.keys(
	(metadata as unknown as { nonGeographic: object }).nonGeographic,
);

describe('COUNTRY_CALLING_CODES (the ITU-T E.164 list of assigned country codes)', () => {
	it("holds the calling code of every country and territory in libphonenumber's metadata", () => {
		expect([...LIBPHONENUMBER_CODES].filter((code) => !COUNTRY_CALLING_CODES.has(code))).toEqual(
			[],
		);
		expect(LIBPHONENUMBER_CODES.size).toBeGreaterThan(200);
	});

	it("holds nothing else: every code in it is some country's in the metadata", () => {
		expect([...COUNTRY_CALLING_CODES].filter((code) => !LIBPHONENUMBER_CODES.has(code))).toEqual(
			[],
		);
	});

	it('leaves out global services, which have no national numbers', () => {
		expect(GLOBAL_SERVICES.length).toBeGreaterThan(5);
		expect(GLOBAL_SERVICES.filter((code) => COUNTRY_CALLING_CODES.has(code))).toEqual([]);
	});

	it.each(['35', '0', '999', '00', '388', '671', '684', '969', '1876', ''])(
		'"%s" is not a country calling code',
		(code) => {
			expect(COUNTRY_CALLING_CODES.has(code)).toBe(false);
		},
	);

	it('is prefix-free, as E.164 requires: no code starts another', () => {
		const codes = [...COUNTRY_CALLING_CODES];
		const clashes = codes.flatMap((a) =>
			codes.filter((b) => a !== b && b.startsWith(a)).map((b) => `${a}/${b}`),
		);
		expect(clashes).toEqual([]);
	});
});
