// The numbering-plan generator behind `gulp build:numbering`: libphonenumber-js's metadata (a dev
// dependency; the package ships no runtime dependencies) read into the table the nodes read
// (nodes/Phonovation/domain/numberingPlans.generated.json, through numberingPlans.ts). Pure: it
// takes the metadata and gives the file's text; the gulpfile writes it.
'use strict';

/** National significant numbers have at most 17 digits (ITU-T E.164 less the shortest code). */
const MAX_NSN = 17;
/** Home forms are told apart by their first two digits and their length. */
const PREFIX = 2;
/** Fixed lines of more lengths than this are no home form: they would take in most numbers. */
const MAX_FIXED_LENGTHS = 3;

/**
 * Reads a libphonenumber pattern (digits, \d, classes, groups, | and ?/{n,m}, nothing else) into
 * the strings it matches, abstracted: their first PREFIX digits (all of a shorter one) → the
 * lengths they come in. One method a construct; `at` is where it reads.
 */
class PatternReader {
	constructor(pattern) {
		this.pattern = pattern;
		this.at = 0;
	}

	fail() {
		throw new Error(`build:numbering: cannot read "${this.pattern}" at ${this.at}`);
	}

	alternatives() {
		let value = this.sequence();
		while (this.pattern[this.at] === '|') {
			this.at++;
			value = union(value, this.sequence());
		}
		return value;
	}

	sequence() {
		let value = EMPTY_STRING;
		while (this.at < this.pattern.length && !'|)'.includes(this.pattern[this.at]))
			value = concat(value, this.quantified(this.atom()));
		return value;
	}

	atom() {
		const char = this.pattern[this.at++];
		if (/\d/.test(char)) return digitsOf(char);
		if (char === '\\' && this.pattern[this.at++] === 'd') return digitsOf('0123456789');
		if (char === '[') return digitsOf(this.characterClass());
		if (char !== '(') this.fail();
		if (this.pattern.startsWith('?:', this.at)) this.at += 2;
		const value = this.alternatives();
		if (this.pattern[this.at++] !== ')') this.fail();
		return value;
	}

	/** The digits of `[0-35\d]`, read past its `]`. */
	characterClass() {
		const { pattern } = this;
		let digits = '';
		while (pattern[this.at] !== ']') {
			const at = this.at;
			const range = /^\d-\d/.test(pattern.slice(at, at + 3));
			if (pattern.startsWith('\\d', at)) digits += '0123456789';
			else if (range) for (let d = +pattern[at]; d <= +pattern[at + 2]; d++) digits += d;
			else if (/\d/.test(pattern[at]) && pattern[at + 1] !== '-') digits += pattern[at];
			else this.fail();
			this.at += pattern.startsWith('\\d', at) ? 2 : range ? 3 : 1;
		}
		this.at++;
		return digits;
	}

	quantified(value) {
		if (this.pattern[this.at] === '?') {
			this.at++;
			return union(EMPTY_STRING, value);
		}
		const bounds = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.at));
		if (!bounds) return value;
		this.at += bounds[0].length;
		const max = bounds[2] === undefined ? +bounds[1] : +(bounds[3] || MAX_NSN);
		return repeated(value, +bounds[1], max);
	}
}

/** The abstracted strings of a pattern (see PatternReader). */
function prefixLengths(pattern) {
	const reader = new PatternReader(pattern);
	const value = reader.alternatives();
	if (reader.at !== pattern.length) reader.fail();
	return value;
}

/** The empty string alone. */
const EMPTY_STRING = new Map([['', new Set([0])]]);

const digitsOf = (digits) => new Map([...new Set(digits)].map((d) => [d, new Set([1])]));

function union(a, b) {
	const out = new Map([...a].map(([prefix, lengths]) => [prefix, new Set(lengths)]));
	for (const [prefix, lengths] of b)
		out.set(prefix, new Set([...(out.get(prefix) ?? []), ...lengths]));
	return out;
}

/** Every string of a followed by every string of b (a shorter prefix is its whole string). */
function concat(a, b) {
	const out = new Map();
	for (const [first, firstLengths] of a)
		for (const [second, secondLengths] of b) {
			const prefix = (first + second).slice(0, PREFIX);
			const lengths = out.get(prefix) ?? new Set();
			for (const x of firstLengths)
				for (const y of secondLengths) if (x + y <= MAX_NSN) lengths.add(x + y);
			if (lengths.size > 0) out.set(prefix, lengths);
		}
	return out;
}

function repeated(value, min, max) {
	let out = min === 0 ? EMPTY_STRING : new Map();
	let times = EMPTY_STRING;
	for (let n = 1; n <= max; n++) {
		times = concat(times, value);
		if (n >= min) out = union(out, times);
	}
	return out;
}

/** `0-35-7` from the digits 0123567, as a class (or a lone digit). */
function digitClass(digits) {
	const sorted = [...new Set(digits)].sort();
	if (sorted.length === 10) return '\\d';
	if (sorted.length === 1) return sorted[0];
	const runs = [];
	for (const d of sorted) {
		const run = runs[runs.length - 1];
		if (run && +run[1] === +d - 1) run[1] = d;
		else runs.push([d, d]);
	}
	const parts = runs.map(([a, b]) => (a === b ? a : +b === +a + 1 ? a + b : `${a}-${b}`));
	return `[${parts.join('')}]`;
}

/** `\d{7,8}`, `(?:\d{6}|\d{8})`: what follows a prefix, for lengths counted with the prefix. */
function rest(lengths, prefixLength) {
	const runs = [];
	for (const length of [...lengths].sort((a, b) => a - b)) {
		const run = runs[runs.length - 1];
		if (run && run[1] === length - 1) run[1] = length;
		else runs.push([length, length]);
	}
	const quantifiers = runs.map(([a, b]) => {
		const [from, to] = [a - prefixLength, b - prefixLength];
		if (to === 0) return '';
		return from === to ? `\\d{${from}}` : `\\d{${from},${to}}`;
	});
	return quantifiers.length === 1 ? quantifiers[0] : `(?:${quantifiers.join('|')})`;
}

/** A pattern for the abstracted strings of full-prefix length: `[67]\d{8}|8[1-4]\d{7,8}`. */
function patternOf(abstract) {
	const bySignature = new Map();
	for (const [prefix, lengths] of abstract) {
		if (prefix.length < PREFIX) continue;
		const signature = [...lengths].sort((a, b) => a - b).join(',');
		const [first, second] = prefix;
		const seconds = bySignature.get(signature) ?? new Map();
		seconds.set(first, (seconds.get(first) ?? '') + second);
		bySignature.set(signature, seconds);
	}
	const alternatives = [];
	for (const [signature, seconds] of bySignature) {
		const lengths = signature.split(',').map(Number);
		const firstsBySecond = new Map();
		for (const [first, second] of seconds) {
			const key = digitClass(second);
			firstsBySecond.set(key, (firstsBySecond.get(key) ?? '') + first);
		}
		for (const [second, firsts] of firstsBySecond) {
			const any = second === '\\d';
			alternatives.push(`${digitClass(firsts)}${any ? '' : second}${rest(lengths, any ? 1 : 2)}`);
		}
	}
	return alternatives.sort().join('|');
}

/** The selected numbering plan's type ('FIXED_LINE', 'MOBILE') as [pattern, lengths], if any. */
function typeOf(plan, type) {
	const found = plan.type(type);
	return found && found.pattern() ? [found.pattern(), found.possibleLengths()] : undefined;
}

/**
 * The numbers a region's people write without a trunk prefix or country code, abstracted: its
 * mobiles, and its fixed lines where these have few lengths (in Germany they have any from 5 to 15).
 */
function homeForms(plan) {
	const fixed = typeOf(plan, 'FIXED_LINE');
	// North America keeps one pattern for fixed lines and mobiles, under fixed lines.
	const mobile = typeOf(plan, 'MOBILE') ?? fixed;
	const types = [mobile];
	if (fixed && fixed[1].length <= MAX_FIXED_LENGTHS) types.push(fixed);
	return types.filter(Boolean).map(([pattern]) => prefixLengths(pattern));
}

/**
 * Whether the main region's numbers are mostly written at home without the trunk prefix: most of
 * libphonenumber's national formats leave it out or make it optional (North America's 1, India's 0).
 */
function trunkOptional(plan) {
	const formats = plan.formats();
	const mandatory = formats.filter((format) =>
		format.nationalPrefixIsMandatoryWhenFormattingInNationalFormat(),
	);
	return mandatory.length * 2 < formats.length;
}

/** One calling code's entry: its main region's parsing rules, every region's plan. */
function numberingEntry(Metadata, metadataJson, code) {
	const regions = metadataJson.country_calling_codes[code];
	const plans = regions.map((region) => {
		const metadata = new Metadata(metadataJson);
		metadata.selectNumberingPlan(region);
		return metadata.numberingPlan;
	});
	const main = plans[0];
	const trunk = main.nationalPrefix() || '';
	const parsing = main.nationalPrefixForParsing() || '';
	const patterns = [...new Set(plans.map((plan) => plan.nationalNumberPattern()))];
	const starts = patterns.map(prefixLengths).reduce(union);
	return {
		regions: regions.join(' '),
		...(trunk && { trunk }),
		...(trunk && trunkOptional(main) && { trunkOptional: true }),
		...(parsing !== trunk && { parsing }),
		...(main.nationalPrefixTransformRule() && { transform: main.nationalPrefixTransformRule() }),
		plan: patterns[0],
		...(patterns.length > 1 && { others: patterns.slice(1).join('|') }),
		lengths: main.possibleLengths(),
		home: patternOf(plans.flatMap(homeForms).reduce(union)),
		...([...starts.keys()].some((prefix) => prefix.startsWith('0')) && { keepsZero: true }),
	};
}

/**
 * The generated file's text (JSON: data, read by numberingPlans.ts), from libphonenumber-js's
 * Metadata class and its metadata.max.json.
 */
function numberingPlansSource(Metadata, metadataJson, version) {
	const codes = Object.keys(metadataJson.country_calling_codes).sort((a, b) => +a - +b);
	const numberings = Object.fromEntries(
		codes.map((code) => [code, numberingEntry(Metadata, metadataJson, code)]),
	);
	const table = {
		generatedBy: `npx gulp build:numbering from libphonenumber-js ${version}`,
		numberings,
	};
	return `${JSON.stringify(table, null, '\t')}\n`;
}

module.exports = { numberingPlansSource, prefixLengths, patternOf, MAX_NSN, PREFIX };
