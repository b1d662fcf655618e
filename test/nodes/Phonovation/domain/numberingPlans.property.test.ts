import fc from 'fast-check';

import {
	type GeneratedNumber,
	numberingProperty,
	numberingViolations,
	writtenNumber,
} from '../resources/conversation/deliveryInvariants';

/**
 * Numbers of every country, from libphonenumber's number types and from the plans of
 * numberingPlans.generated.json, written in national form (with the trunk prefix where the country has
 * one) under their Default Country Code: read as libphonenumber-js reads them, or refused naming
 * that reading, never as another number (see `numberingViolations`). numberingPlans.test.ts holds a
 * fixed corpus to the same; this generates beyond it. `npm run fuzz` runs it 5,000 times more.
 */
const SEED = 20_260_615;
const RUNS = 3000;

const number = (change: Partial<GeneratedNumber>): GeneratedNumber => ({
	region: 'IE',
	source: 'type',
	nsn: '871234567',
	form: 'digits',
	spelling: 'bare',
	cuts: [3],
	separator: 0,
	bracketFirst: false,
	...change,
});

/** Trunk prefixes that are no single 0, and a national form that is also a number as written. */
const EXAMPLES: Array<[string, GeneratedNumber, string]> = [
	[
		'Hungary, 06',
		number({ region: 'HU', nsn: '301234567', form: 'grouped', cuts: [2, 2, 3, 4] }),
		'06 30 123 4567',
	],
	[
		'Russia, 8',
		number({ region: 'RU', nsn: '9123456789', form: 'formatted' }),
		'8 (912) 345-67-89',
	],
	[
		'Russia, 8 800 (also +880 as written: refused naming both)',
		number({ region: 'RU', nsn: '8005553535' }),
		'88005553535',
	],
	[
		'Argentina, 0 and 15',
		number({ region: 'AR', nsn: '91123456789', form: 'formatted' }),
		'011 15-2345-6789',
	],
	[
		'North America, 1',
		number({ region: 'US', nsn: '2024561111', spelling: 'plus' }),
		'12024561111',
	],
	[
		'Italy, no trunk prefix',
		number({ region: 'IT', nsn: '0612345678', spelling: 'idd' }),
		'0612345678',
	],
];

describe('national forms of every country against libphonenumber-js', () => {
	it.each(EXAMPLES)('%s', (_name, n, written) => {
		expect(writtenNumber(n)).toBe(written);
		expect(numberingViolations(n)).toEqual([]);
	});

	it(`${RUNS} generated numbers: the same number, or refused naming it; excluded as it`, () => {
		let checked = 0;
		let runs = 0;
		fc.assert(
			numberingProperty({
				onRun: (wasChecked) => {
					runs++;
					if (wasChecked) checked++;
				},
			}),
			{ seed: SEED, numRuns: RUNS, examples: EXAMPLES.map(([, n]) => [n]) },
		);
		// Most generated numbers are numbers libphonenumber reads: the property is not vacuous.
		expect(checked).toBeGreaterThan(runs * 0.75);
	});
});
