import fc from 'fast-check';
import type { CountryCode } from 'libphonenumber-js';
import { getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';

import {
	normaliseMsisdn,
	splitRecipients,
	toMsisdn,
} from '../../../../nodes/Phonovation/domain/phoneNumbers';

/**
 * Generated numbers, written as people write them, read by normaliseMsisdn and by Google's numbering
 * metadata (libphonenumber-js with its full metadata, so validity checks each country's number ranges).
 */
const COUNTRIES: CountryCode[] = ['IE', 'GB', 'FR', 'DE', 'ES', 'IT', 'PL', 'US'];

type Form = 'international' | 'idd' | 'trunkAfterCode' | 'national' | 'bare';

interface Sample {
	country: CountryCode;
	form: Form;
	/** The national significant number, possibly with a digit dropped or added. */
	nsn: string;
	/** As the user wrote it, invisible marks included. */
	shown: string;
	/** The same without invisible marks: what the oracle reads. */
	clean: string;
}

/** One country's record in the compressed metadata: [calling code, …, slot 5 trunk prefix, …, slot 11 types]. */
type CountryRecord = [string, string, string, number[], unknown, string | 0, ...unknown[]];
const RECORDS = metadata.countries as unknown as Record<string, CountryRecord>;

const trunkPrefixOf = (country: CountryCode) => {
	const prefix = RECORDS[country][5];
	return typeof prefix === 'string' ? prefix : '';
};

/** National significant numbers matching the country's fixed-line or mobile pattern. */
function nationalNumbers(country: CountryCode): fc.Arbitrary<string> {
	const types = RECORDS[country][11] as Array<[string, number[]?] | 0>;
	const patterns = [types[0], types[1]].flatMap((type) => (type && type[0] ? [type[0]] : []));
	return fc.oneof(...patterns.map((pattern) => fc.stringMatching(new RegExp(`^(?:${pattern})$`))));
}

const SEPARATORS = ['', ' ', '-', '.', '\u00A0', '\u202F', ' - '];
/** libphonenumber does not take the narrow no-break space; it gets a plain space there. */
const forOracle = (separator: string) => (separator === '\u202F' ? ' ' : separator);
const MARKS = [
	'\u202A',
	'\u202C',
	'\u202E',
	'\u2066',
	'\u2069',
	'\u200E',
	'\u200F',
	'\u200B',
	'\uFEFF',
	'\u00AD',
];

interface Layout {
	separators: number[];
	cuts: number[];
	marks: number[];
	bracketFirstGroup: boolean;
}

const layout: fc.Arbitrary<Layout> = fc.record({
	separators: fc.array(fc.nat(SEPARATORS.length - 1), { minLength: 24, maxLength: 24 }),
	cuts: fc.array(fc.nat(3), { minLength: 24, maxLength: 24 }),
	marks: fc.array(fc.nat(MARKS.length * 4), { minLength: 24, maxLength: 24 }),
	bracketFirstGroup: fc.boolean(),
});

/** Digits cut into groups with random separators; invisible marks go only into `shown`. */
function decorate(prefix: string, digits: string, look: Layout): { clean: string; shown: string } {
	let clean = prefix;
	let shown = prefix;
	let group = 0;
	for (let i = 0; i < digits.length; i++) {
		const cut = i > 0 && look.cuts[i % 24] === 0;
		const separator = cut ? SEPARATORS[look.separators[i % 24]] || ' ' : '';
		const close = cut && group === 0 && look.bracketFirstGroup ? ')' : '';
		const open = i === 0 && look.bracketFirstGroup ? '(' : '';
		if (cut) group++;
		const mark = MARKS[look.marks[i % 24]] ?? '';
		clean += close + forOracle(separator) + open + digits[i];
		shown += close + separator + open + mark + digits[i];
	}
	const tail = group === 0 && look.bracketFirstGroup ? ')' : '';
	return { clean: clean + tail, shown: (MARKS[look.marks[23]] ?? '') + shown + tail };
}

/** How each form writes the number (prefix, then the digits that get grouped). */
function written(country: CountryCode, form: Form, nsn: string): [string, string] {
	const code = getCountryCallingCode(country);
	switch (form) {
		case 'international':
			return [`+${code} `, nsn];
		case 'idd':
			return [`00${code} `, nsn];
		case 'trunkAfterCode':
			return [`+${code} (0) `, nsn];
		case 'national':
			return ['', trunkPrefixOf(country) + nsn];
		case 'bare':
			return ['', code + nsn];
	}
}

function mutated(nsn: string, change: 'none' | 'drop' | 'add', digit: number): string {
	if (change === 'drop') return nsn.slice(0, -1);
	if (change === 'add') return nsn + String(digit);
	return nsn;
}

const sampleOf = (country: CountryCode) =>
	fc
		.record({
			nsn: nationalNumbers(country),
			change: fc.constantFrom('none', 'none', 'none', 'drop', 'add'),
			digit: fc.nat(9),
			form: fc.constantFrom<Form>('international', 'idd', 'trunkAfterCode', 'national', 'bare'),
			look: layout,
		})
		.map(({ nsn, change, digit, form, look }): Sample => {
			const number = mutated(nsn, change, digit);
			const [prefix, digits] = written(country, form, number);
			return { country, form, nsn: number, ...decorate(prefix, digits, look) };
		});

const samples = fc.oneof(...COUNTRIES.map(sampleOf));

interface Reading {
	ok: boolean;
	msisdn?: string;
	reason?: string;
}

function oracleReading(sample: Sample): Reading & { possible: boolean } {
	const text = sample.form === 'bare' ? `+${sample.clean.replace(/\D/g, '')}` : sample.clean;
	// 00 is the international prefix from Ireland (and most of Europe), not from the US (011).
	const parsed = parsePhoneNumberFromString(
		text,
		sample.form === 'national' ? sample.country : 'IE',
	);
	return {
		ok: parsed?.isValid() ?? false,
		msisdn: parsed?.number.slice(1),
		possible: parsed?.isPossible() ?? false,
	};
}

function ourReading(sample: Sample): Reading {
	const result = normaliseMsisdn(sample.shown, getCountryCallingCode(sample.country));
	return result.ok ? { ok: true, msisdn: result.msisdn } : { ok: false, reason: result.reason };
}

interface Disagreement {
	name: string;
	why: string;
	applies(sample: Sample, ours: Reading, oracle: ReturnType<typeof oracleReading>): boolean;
}

/** Where we differ from libphonenumber on purpose. Anything else fails the test. */
const KEPT: Disagreement[] = [
	{
		name: 'provider minimum of 8 digits',
		why: 'the provider takes at most 20 digits and we refuse fewer than 8 (docs/provider-api.md#msisdn-rules), so short German numbers such as +49 30 12345 are refused',
		applies: (_s, ours, oracle) => oracle.ok && !ours.ok && (oracle.msisdn ?? '').length < 8,
	},
	{
		name: "other countries' number ranges are not checked",
		why: 'outside Ireland only the length is checked: the gateway knows its routes, and metadata lags new ranges',
		applies: (s, ours, oracle) =>
			s.country !== 'IE' && ours.ok && !oracle.ok && ours.msisdn === oracle.msisdn,
	},
	{
		name: "an invalid number's trunk prefix is dropped all the same",
		why:
			'libphonenumber keeps a trunk prefix (0, or 1 in the US) when the digits after it are no possible number of ' +
			'that country and then calls the whole invalid; outside Ireland we drop it and check only the length',
		applies: (s, ours, oracle) => {
			const code = getCountryCallingCode(s.country);
			const withTrunkPrefix =
				ours.msisdn && code + (trunkPrefixOf(s.country) || '0') + ours.msisdn.slice(code.length);
			return s.country !== 'IE' && ours.ok && !oracle.ok && oracle.msisdn === withTrunkPrefix;
		},
	},
	{
		name: 'digits that could be two numbers are refused',
		why:
			'under a Default Country Code other than Irish, digits without + or 00 that are a number as written and ' +
			"also the default country's number as written there (Polish 483 000 000, or +48 3000000) are refused naming " +
			'both: libphonenumber picks one, and a text must not reach a stranger on a guess',
		applies: (s, ours) =>
			s.country !== 'IE' &&
			(s.form === 'bare' || s.form === 'national') &&
			!ours.ok &&
			/^ambiguous: /.test(ours.reason ?? ''),
	},
	{
		name: 'digits that are no number of the default country are read as written',
		why:
			'docs/provider-api.md#msisdn-rules: bare digits carry their country code, so a Spanish, Polish or Italian number written there with ' +
			'a digit too few or too many, no number of that country, is read as international digits (7800 0000 as +7…)',
		applies: (s, ours, oracle) =>
			s.form === 'national' &&
			trunkPrefixOf(s.country) === '' &&
			ours.ok &&
			!oracle.ok &&
			ours.msisdn === s.clean.replace(/\D/g, ''),
	},
	{
		name: 'digits that are no number as written are read as the default country writes its numbers',
		why:
			'bare digits that fit no number as written (by the plans nationalNumbers.ts knows) but are a number of a ' +
			'country without trunk prefix as written there are read as that (393 123 4567 under 39: +39 393 123 4567); ' +
			'libphonenumber reads them as international and finds them invalid',
		applies: (s, ours, oracle) =>
			s.form === 'bare' &&
			trunkPrefixOf(s.country) !== '0' &&
			ours.ok &&
			!oracle.ok &&
			ours.msisdn === getCountryCallingCode(s.country) + s.clean.replace(/\D/g, ''),
	},
	{
		name: 'a 0 after the code of a country without a trunk 0 is dropped',
		why:
			'Spanish, Polish and NANP numbers never start with 0, so +34 (0) 612… can only be the national habit: ' +
			'we send +34 612…; libphonenumber keeps the 0 and calls the number invalid',
		applies: (s, ours) =>
			s.form === 'trunkAfterCode' &&
			['ES', 'PL', 'US'].includes(s.country) &&
			ours.msisdn === getCountryCallingCode(s.country) + s.nsn,
	},
	{
		name: "a (0) after the code that may be the number's own 0 is refused naming both",
		why:
			"where a country's numbers may start with 0 (Italy), +39 (0) 43… is 39 043… (the 0 as written) or " +
			'39 43… (the (0) an optional trunk 0, as people write it after other codes), and so is a first group ' +
			'bracketed as +39 (0)831…; libphonenumber keeps the 0, ' +
			'and a text must not reach a stranger on a guess',
		applies: (_s, ours, oracle) =>
			!ours.ok &&
			/^ambiguous: \d+ with the 0 in brackets or \d+ without it/.test(ours.reason ?? '') &&
			(ours.reason ?? '').includes(oracle.msisdn ?? '-'),
	},
	{
		name: "the Irish plan's shape, not each number range",
		why:
			"Irish numbers are checked against libphonenumber's general Irish pattern (lengths per first digit), so a " +
			'number of a valid length in an unallocated range passes, as it did before',
		applies: (s, ours, oracle) =>
			s.country === 'IE' &&
			ours.ok &&
			!oracle.ok &&
			oracle.possible &&
			ours.msisdn === oracle.msisdn,
	},
];

const RUN = { seed: 20_260_612, numRuns: 2500 };

/** Rare in generated numbers, so given as well: a 5-digit Berlin number, valid but under the provider minimum. */
const SHORT_GERMAN: Sample = {
	country: 'DE',
	form: 'international',
	nsn: '30123',
	clean: '+49 30 123',
	shown: '+49 30 123',
};

describe('normaliseMsisdn against libphonenumber on generated numbers (IE GB FR DE ES IT PL US)', () => {
	it('agrees on validity and the normalised form, except for the disagreements kept on purpose', () => {
		const seen = new Map<string, number>(KEPT.map((d) => [d.name, 0]));
		fc.assert(
			fc.property(samples, (sample) => {
				const ours = ourReading(sample);
				const oracle = oracleReading(sample);
				const agree = ours.ok === oracle.ok && (!ours.ok || ours.msisdn === oracle.msisdn);
				if (agree) return;
				const kept = KEPT.find((d) => d.applies(sample, ours, oracle));
				expect({ sample, ours, oracle: kept ? 'kept' : oracle }).toEqual({
					sample,
					ours,
					oracle: 'kept',
				});
				seen.set(kept!.name, seen.get(kept!.name)! + 1);
			}),
			{ ...RUN, examples: [[SHORT_GERMAN]] },
		);
		// Every listed disagreement still happens: a rule that changed would leave a stale excuse.
		expect([...seen].filter(([, count]) => count === 0)).toEqual([]);
	});

	it('gives an Irish number the same verdict in national and international form', () => {
		const irish = fc.record({
			nsn: nationalNumbers('IE'),
			change: fc.constantFrom('none', 'drop', 'add'),
			digit: fc.nat(9),
		});
		fc.assert(
			fc.property(irish, ({ nsn, change, digit }) => {
				const number = mutated(nsn, change, digit);
				const national = normaliseMsisdn(`0${number}`);
				const forms = [`+353 ${number}`, `00353${number}`, `353${number}`, `+353 (0)${number}`];
				for (const form of forms) {
					expect({ form, ok: normaliseMsisdn(form).ok }).toEqual({ form, ok: national.ok });
				}
			}),
			{ ...RUN, numRuns: 1000 },
		);
	});
});

describe('toMsisdn (the allocation-free reading of large lists)', () => {
	const written = fc.oneof(
		fc.stringMatching(/^[0-9]{0,22}$/),
		fc.stringMatching(/^0{1,2}[0-9]{6,14}$/),
		fc.stringMatching(/^\+?[0-9 ()-]{0,20}$/),
		// Spreadsheet floats and scientific notation, and dots people write between groups.
		fc.stringMatching(/^\+?[0-9]{5,16}\.[0-9]{1,3}$/),
		fc.stringMatching(/^[0-9]{1,16}\.0{1,2}$/),
		fc.stringMatching(/^[0-9]{1,4}(\.[0-9]{1,4}){1,3}$/),
		fc.stringMatching(/^[1-9][.,][0-9]{0,11}[eE][+]?[0-9]{1,2}$/),
	);
	// With trunk prefixes 06 (Hungary), 8 (Russia, Belarus) and Argentina's rewriting rule too.
	const countryCodes = fc.constantFrom(
		'353',
		'44',
		'33',
		'39',
		'1',
		'225',
		'49',
		'36',
		'7',
		'375',
		'54',
	);

	it('gives exactly what normaliseMsisdn gives: the msisdn of a valid number, nothing for an invalid one', () => {
		fc.assert(
			fc.property(written, countryCodes, (input, code) => {
				const full = normaliseMsisdn(input, code);
				expect({ input, code, msisdn: toMsisdn(input, code) }).toEqual({
					input,
					code,
					msisdn: full.ok ? full.msisdn : undefined,
				});
			}),
			{ ...RUN, numRuns: 5000 },
		);
	});

	it('reads a number, its text and its spreadsheet float alike, and never as the float with its 0 as a digit', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), countryCodes, (n, code) => {
				const [entry] = splitRecipients(n);
				const msisdn = toMsisdn(entry, code);
				const read = [entry, `${n}.0`, `${n}.00`].map(
					(input) => [toMsisdn(input, code), normaliseMsisdn(input, code)] as const,
				);
				for (const [fast, full] of read) {
					expect({ n, code, fast, full: full.ok ? full.msisdn : undefined }).toEqual({
						n,
						code,
						fast: msisdn,
						full: msisdn,
					});
				}
				if (msisdn !== undefined) expect(msisdn.endsWith(`${n}0`)).toBe(false);
			}),
			{ ...RUN, numRuns: 3000 },
		);
	});
});
