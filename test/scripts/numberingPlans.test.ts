import fc from 'fast-check';

/** The generator behind `gulp build:numbering` (scripts/numberingPlans.js: JavaScript, typed here by hand). */
const generator = require('../../scripts/numberingPlans.js') as {
	prefixLengths(pattern: string): Map<string, Set<number>>;
	patternOf(abstract: Map<string, Set<number>>): string;
	MAX_NSN: number;
	PREFIX: number;
};
const { prefixLengths, patternOf, MAX_NSN, PREFIX } = generator;

/** A reading as plain data: prefix → sorted lengths. */
const plain = (read: Map<string, Set<number>>) =>
	Object.fromEntries([...read].map(([prefix, lengths]) => [prefix, [...lengths].sort()]));

const whole = (pattern: string) => new RegExp(`^(?:${pattern})$`);

describe('the numbering-plan generator: a pattern read as the first two digits and the lengths after them', () => {
	it('reads digits, \\d, classes and bounded repeats', () => {
		expect(plain(prefixLengths('8[3-57]\\d{7}'))).toEqual({
			'83': [9],
			'84': [9],
			'85': [9],
			'87': [9],
		});
	});

	it('reads alternatives, groups and optional parts, and keeps a string shorter than the prefix whole', () => {
		expect(plain(prefixLengths('1(?:0\\d|2)|3\\d?'))).toEqual({
			'10': [3],
			'12': [2],
			'3': [1],
			...Object.fromEntries([...'0123456789'].map((d) => [`3${d}`, [2]])),
		});
	});

	it(`counts no length beyond ${MAX_NSN} digits (an open repeat stops there)`, () => {
		const lengths = prefixLengths('9\\d{3,}').get('90')!;
		expect(Math.max(...lengths)).toBe(MAX_NSN);
		expect(Math.min(...lengths)).toBe(4);
	});

	it.each(['8[a-z]', '\\s', '8+', '(?=8)9', '(8'])(
		'refuses what it cannot read (%s), naming the pattern and where',
		(pattern) => {
			expect(() => prefixLengths(pattern)).toThrow(
				new RegExp(
					`^build:numbering: cannot read "${pattern.replace(/[\\()[\]+?=]/g, '\\$&')}" at \\d+$`,
				),
			);
		},
	);

	it('writes a pattern back from a reading: 8[3-9]\\d{7} comes back as it went in', () => {
		expect(patternOf(prefixLengths('8[3-9]\\d{7}'))).toBe('8[3-9]\\d{7}');
		expect(patternOf(prefixLengths('[67]\\d{8}'))).toBe('[67]\\d{8}');
	});

	/** Patterns as libphonenumber writes them: digits, \d, classes, groups, |, ? and {n,m}. */
	const atom = fc.oneof(
		fc.constantFrom(...'0123456789'),
		fc.constant('\\d'),
		fc
			.uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 2, maxLength: 4 })
			.map((ds) => `[${ds.join('')}]`),
	);
	const quantifier = fc.oneof(
		fc.constant(''),
		fc.constant('?'),
		fc.integer({ min: 1, max: 4 }).map((n) => `{${n}}`),
		fc
			.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 3 }))
			.map(([a, b]) => `{${a},${a + b}}`),
	);
	const sequence = fc
		.array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 })
		.map((parts) => parts.map(([a, q]) => a + q).join(''));
	const pattern = fc
		.array(
			fc.oneof(
				sequence,
				fc.array(sequence, { minLength: 2, maxLength: 3 }).map((alts) => `(?:${alts.join('|')})`),
			),
			{ minLength: 1, maxLength: 3 },
		)
		.map((parts) => parts.join(''));
	const digits = fc.stringMatching(/^\d{2,12}$/);

	it('property: every number of two digits or more the pattern takes, the pattern written back takes too', () => {
		fc.assert(
			fc.property(pattern, fc.array(digits, { minLength: 20, maxLength: 40 }), (p, numbers) => {
				const written = patternOf(prefixLengths(p));
				const original = whole(p);
				const back = written === '' ? /^$/ : whole(written);
				for (const number of numbers.filter((n) => n.length >= PREFIX && original.test(n)))
					if (!back.test(number)) return false;
				return true;
			}),
			{ numRuns: 300 },
		);
	});
});
