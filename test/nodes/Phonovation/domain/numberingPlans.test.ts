import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import type { CountryCode, MetadataJson } from 'libphonenumber-js';
import { Metadata } from 'libphonenumber-js/core';
import mobileExamples from 'libphonenumber-js/examples.mobile.json';
import {
	getCountries,
	getCountryCallingCode,
	getExampleNumber,
	parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';
import { version } from 'libphonenumber-js/package.json';

import {
	normaliseMsisdn,
	suppressionForms,
} from '../../../../nodes/Phonovation/domain/phoneNumbers';

/**
 * The numbering table is generated from libphonenumber's metadata (`npx gulp build:numbering`);
 * these tests hold the committed table to it, and the reading of national forms under every
 * Default Country Code to libphonenumber's own reading of them.
 */

const ROOT = join(__dirname, '../../../..');

/** The gulpfile's generator, run in memory (gulpfile.js is JavaScript: typed here by hand). */
const gulpfile = require(join(ROOT, 'gulpfile.js')) as {
	'build:numbering': { source(metadataClass: unknown, json: unknown, version: string): string };
};

type CountryRecord = [string, string, string, number[], unknown, string | 0, ...unknown[]];
const RECORDS = metadata.countries as unknown as Record<string, CountryRecord>;
const MAIN_REGION = Object.fromEntries(
	Object.entries(metadata.country_calling_codes).map(([code, regions]) => [code, regions[0]]),
) as Record<string, CountryCode>;

const trunkPrefixOf = (region: CountryCode) => RECORDS[region][5] || '';

describe('numberingPlans.generated.json', () => {
	it('is what `npx gulp build:numbering` writes from the installed libphonenumber-js (run it after an update)', () => {
		const committed = readFileSync(
			join(ROOT, 'nodes/Phonovation/domain/numberingPlans.generated.json'),
			'utf8',
		);
		const generated = gulpfile['build:numbering'].source(Metadata, metadata, version);
		expect(generated.split('\n')).toEqual(committed.split('\n'));
	});
});

/** A few valid numbers (national significant numbers) of each region: its example, fixed lines and mobiles. */
function corpusOf(region: CountryCode): string[] {
	const code = getCountryCallingCode(region);
	const types = (RECORDS[region][11] ?? []) as Array<[string, number[]?] | 0>;
	const numbers = new Set<string>();
	const example = getExampleNumber(region, mobileExamples);
	if (example) numbers.add(example.nationalNumber);
	for (const type of types.slice(0, 2)) {
		if (!type || !type[0]) continue;
		const matching = fc.stringMatching(new RegExp(`^(?:${type[0]})$`));
		for (const nsn of fc.sample(matching, { seed: 20_260_614, numRuns: 6 })) numbers.add(nsn);
	}
	return [...numbers].filter((nsn) => parsePhoneNumberFromString(`+${code}${nsn}`)?.isValid());
}

interface Case {
	region: CountryCode;
	code: string;
	/** As written: libphonenumber's national format, or the trunk prefix and the digits. */
	written: string;
	/** libphonenumber's reading under the code's main region, as an msisdn. */
	msisdn: string;
}

/** Every region's corpus in national form, where libphonenumber reads it as a valid number. */
function nationalCases(): Case[] {
	const cases: Case[] = [];
	for (const region of getCountries()) {
		const code = getCountryCallingCode(region);
		for (const nsn of corpusOf(region)) {
			const national = parsePhoneNumberFromString(`+${code}${nsn}`)!.formatNational();
			for (const written of new Set([national, trunkPrefixOf(region) + nsn])) {
				// 00… is international under every Default Country Code (a Rwandan 0 06… is not read).
				if (written.startsWith('00')) continue;
				const oracle = parsePhoneNumberFromString(written, MAIN_REGION[code]);
				if (oracle?.isValid())
					cases.push({ region, code, written, msisdn: oracle.number.slice(1) });
			}
		}
	}
	return cases;
}

const CASES = nationalCases();

/** What normaliseMsisdn made of a case: the right number, a refusal naming it, or something else. */
function verdict({ written, code, msisdn }: Case): string {
	const result = normaliseMsisdn(written, code);
	if (result.ok) return result.msisdn === msisdn ? 'right' : `wrong: ${result.msisdn}`;
	if (result.reason.startsWith('too short')) return 'under the provider minimum';
	if (/^ambiguous: /.test(result.reason) && result.reason.includes(msisdn))
		return 'refused naming both readings';
	if (result.reason.includes(`(${msisdn})`)) return 'refused naming it';
	return `refused: ${result.reason}`;
}

describe('national forms under every Default Country Code, as libphonenumber reads them', () => {
	it('has a corpus of every region', () => {
		expect(new Set(CASES.map((c) => c.region)).size).toBeGreaterThan(230);
		expect(CASES.length).toBeGreaterThan(2500);
	});

	it('never reads a national form as a number libphonenumber does not', () => {
		const wrong = CASES.map((c) => ({ ...c, verdict: verdict(c) })).filter((c) =>
			c.verdict.startsWith('wrong'),
		);
		expect(wrong).toEqual([]);
	});

	it('reads every national form written with its trunk prefix as libphonenumber does, or refuses naming its reading', () => {
		const withTrunk = CASES.filter(
			(c) => trunkPrefixOf(c.region) !== '' && c.written.startsWith(trunkPrefixOf(c.region)),
		);
		const verdicts = withTrunk.map((c) => ({ ...c, verdict: verdict(c) }));
		expect(verdicts.filter((c) => !/^(right|refused naming|under)/.test(c.verdict))).toEqual([]);
		expect(verdicts.filter((c) => c.verdict === 'right').length).toBeGreaterThan(
			withTrunk.length * 0.95,
		);
	});

	it('reads most national forms to the same number, and refuses the rest without a guess', () => {
		const counts = new Map<string, number>();
		for (const c of CASES) {
			const kind = verdict(c).replace(/:.*/, '');
			counts.set(kind, (counts.get(kind) ?? 0) + 1);
		}
		expect(counts.get('right')).toBeGreaterThan(CASES.length * 0.9);
		expect([...counts.keys()].sort()).toEqual(
			expect.arrayContaining(['refused naming both readings', 'right']),
		);
		expect(counts.get('wrong')).toBeUndefined();
	});

	it('excludes the number libphonenumber reads from every national form of an Exclude Numbers entry', () => {
		const missed = CASES.filter((c) => c.msisdn.length >= 8).filter(
			(c) => !suppressionForms(c.written, c.code).includes(c.msisdn),
		);
		expect(missed).toEqual([]);
	});

	it('drops a trunk prefix written by habit after the country code, as libphonenumber does', () => {
		const checked = CASES.filter((c) => trunkPrefixOf(c.region) !== '').map((c) => {
			const nsn = c.msisdn.slice(c.code.length);
			const written = `+${c.code} ${trunkPrefixOf(c.region)}${nsn}`;
			const oracle = parsePhoneNumberFromString(written);
			const ours = normaliseMsisdn(written, '353');
			return {
				written,
				oracle: oracle?.isValid() ? oracle.number.slice(1) : 'invalid',
				ours: ours.ok ? ours.msisdn : ours.reason,
			};
		});
		// Under the provider minimum (+43 1114, Vienna's 4-digit numbers) it is refused all the same.
		const sendable = checked.filter((c) => c.oracle !== 'invalid' && c.oracle.length >= 8);
		expect(sendable.filter((c) => c.oracle !== c.ours)).toEqual([]);
		expect(sendable.length).toBeGreaterThan(1500);
	});
});

describe('trunk prefixes that are no single 0', () => {
	const trunkOf = (code: string) => trunkPrefixOf(MAIN_REGION[code]);

	it("are libphonenumber's: 06 in Hungary, 8 in Russia and Kazakhstan, Belarus and Turkmenistan", () => {
		expect(['36', '7', '375', '993', '370', '1'].map(trunkOf)).toEqual([
			'06',
			'8',
			'8',
			'8',
			'0',
			'1',
		]);
	});

	it.each([
		{ written: '06 30 123 4567', code: '36', msisdn: '36301234567' },
		{ written: '06 1 234 5678', code: '36', msisdn: '3612345678' },
		{ written: '(06 1) 234 5678', code: '36', msisdn: '3612345678' },
		{ written: '8 912 345-67-89', code: '7', msisdn: '79123456789' },
		{ written: '8 (701) 234-56-78', code: '7', msisdn: '77012345678' },
		{ written: '8 029 491-19-11', code: '375', msisdn: '375294911911' },
		{ written: '8 0 29 491 19 11', code: '375', msisdn: '375294911911' },
		{ written: '029 491 19 11', code: '375', msisdn: '375294911911' },
		{ written: '8 (7172) 12-34-56', code: '7', msisdn: '77172123456' },
		{ written: '8 017 123-45-67', code: '375', msisdn: '375171234567' },
		{ written: '8 12 34-56-78', code: '993', msisdn: '99312345678' },
		{ written: '8 5 212 3456', code: '370', msisdn: '37052123456' },
		{ written: '0612 34567', code: '370', msisdn: '37061234567' },
		{ written: '1 202 456 1111', code: '1', msisdn: '12024561111' },
		{ written: '011 15 2345-6789', code: '54', msisdn: '5491123456789' },
	])('$written under $code → $msisdn', ({ written, code, msisdn }) => {
		const oracle = parsePhoneNumberFromString(written, MAIN_REGION[code]);
		expect(oracle?.number).toBe(`+${msisdn}`);
		expect(normaliseMsisdn(written, code)).toEqual({ ok: true, input: written, msisdn });
		expect(suppressionForms(written, code)).toContain(msisdn);
	});

	it('reads +36 06…, +7 8…, +375 8 0… as their numbers: a trunk prefix after the code', () => {
		expect(normaliseMsisdn('+36 06 30 123 4567')).toMatchObject({ msisdn: '36301234567' });
		expect(normaliseMsisdn('+7 8 912 345 67 89')).toMatchObject({ msisdn: '79123456789' });
		expect(normaliseMsisdn('+375 8 029 491 19 11')).toMatchObject({ msisdn: '375294911911' });
	});

	it('refuses a national form that is also a number as written, naming both', () => {
		// 8 800… is a Russian toll-free number, and +880 555 3535 as written (Bangladesh).
		expect(normaliseMsisdn('8 800 555 35 35', '7')).toMatchObject({
			ok: false,
			reason: expect.stringMatching(/^ambiguous: 8805553535 as written .* \(78005553535\)/),
		});
		// 8 495… is Moscow in national form, and +84 951 234 567 as written (Vietnam).
		expect(normaliseMsisdn('8 (495) 123-45-67', '7')).toEqual({
			ok: false,
			input: '8 (495) 123-45-67',
			reason:
				'ambiguous: 84951234567 as written (country code 84) or a number of Russia or Kazakhstan in national form (74951234567); write it with + and its country code',
		});
		expect(suppressionForms('8 (495) 123-45-67', '7')).toEqual(['84951234567', '74951234567']);
	});

	it('refuses a number that lost its 06, naming it, and excludes it as an opt-out', () => {
		expect(normaliseMsisdn('30 123 4567', '36')).toEqual({
			ok: false,
			input: '30 123 4567',
			reason:
				'no country prefix: looks like a number of Hungary without its leading 06 (36301234567); write it with its 06, or with + and its country code',
		});
		expect(suppressionForms('30 123 4567', '36')).toContain('36301234567');
	});

	it('reads a Russian mobile written without its 8, as Russians write them, when it is no number as written', () => {
		expect(normaliseMsisdn('912 345-67-89', '7')).toMatchObject({
			ok: true,
			msisdn: '79123456789',
		});
	});

	it('refuses a Hungarian national form that fits no Hungarian number, never sending it as 366…', () => {
		expect(normaliseMsisdn('06 30 123 456 789', '36')).toMatchObject({
			ok: false,
			reason: expect.stringMatching(/^no country prefix: fits no number of Hungary/),
		});
	});
});

describe('a (0) after the country code', () => {
	it.each([
		{ written: '+44 (0)20 7946 0018', msisdn: '442079460018' },
		{ written: '+33 (0)6 12 34 56 78', msisdn: '33612345678' },
		{ written: '+34 (0) 612 345 678', msisdn: '34612345678' },
		// Italian landlines keep their 0: without it, no Italian number.
		{ written: '+39 (0)6 1234 5678', msisdn: '390612345678' },
	])('$written is one number: $msisdn', ({ written, msisdn }) => {
		expect(normaliseMsisdn(written)).toEqual({ ok: true, input: written, msisdn });
		expect(suppressionForms(written, '353')).toEqual([msisdn]);
	});

	it('where numbers may start with 0, may be either: the recipient is refused naming both', () => {
		expect(normaliseMsisdn('+39 (0)312 345 6789')).toEqual({
			ok: false,
			input: '+39 (0)312 345 6789',
			reason:
				'ambiguous: 3903123456789 with the 0 in brackets or 393123456789 without it; write it without the brackets, or without the (0)',
		});
	});

	it.each([
		['+39 (0)312 345 6789', ['3903123456789', '393123456789']],
		['0039 (0) 312 345 6789', ['3903123456789', '393123456789']],
		['+225 (0)7 12 34 56 78', ['2250712345678']],
		// Norwegian numbers may start with 0 (short service numbers), mobiles do not: its 0 is a trunk mark.
		['+47 (0)412 34 567', ['4741234567']],
	])('the opt-out %s is excluded in every reading', (written, forms) => {
		expect(suppressionForms(written, '353')).toEqual(forms);
		expect(suppressionForms(written, '44')).toEqual(forms);
	});
});
