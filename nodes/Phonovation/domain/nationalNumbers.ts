// How each country writes its numbers at home: its trunk prefix, rewrite rules and numbering plan.
import type { GeneratedNumbering } from './numberingPlans';
import { NUMBERINGS } from './numberingPlans';

/**
 * How every country writes its numbers at home, read as Google's libphonenumber reads them: its
 * trunk prefix (0, 06 in Hungary, 8 in Russia, 1 in North America, none in Spain or Italy), the
 * rules that rewrite a national number (Argentina's 15 mobiles), and its plan. The data is
 * numberingPlans.generated.json, written from libphonenumber's metadata at build time
 * (`npx gulp build:numbering`): the package keeps no runtime dependencies. Tests hold the reading
 * to libphonenumber's over a corpus of every region's numbers.
 */

/**
 * In reasons, the countries the package has long named are named by adjective ("a UK number");
 * any other by its regions' names ("a number of Hungary"). Words only: the plans are generated.
 */
const ADJECTIVES: Readonly<Record<string, string>> = {
	'1': 'North American',
	'27': 'South African',
	'31': 'Dutch',
	'32': 'Belgian',
	'33': 'French',
	'34': 'Spanish',
	'39': 'Italian',
	'41': 'Swiss',
	'43': 'Austrian',
	'44': 'UK',
	'45': 'Danish',
	'46': 'Swedish',
	'47': 'Norwegian',
	'48': 'Polish',
	'49': 'German',
	'61': 'Australian',
	'64': 'New Zealand',
	'91': 'Indian',
	'351': 'Portuguese',
	'353': 'Irish',
};

/**
 * A pattern matched from a position to the end of the text. Sticky, so a number's national part is
 * read in place: a slice per number would add up in a 400,000-number campaign.
 */
const sticky = (pattern: string) => new RegExp(`(?:${pattern})$`, 'y');

function matchesFrom(pattern: RegExp, digits: string, from: number): boolean {
	pattern.lastIndex = from;
	return pattern.test(digits);
}

let regionNames: Intl.DisplayNames | undefined | null;

/** `Hungary`, `Russia or Kazakhstan`; a region's ISO code where Intl has no names. */
function namesOf(regions: string[]): string {
	if (regionNames === undefined) {
		try {
			regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
		} catch {
			regionNames = null;
		}
	}
	const names = regions.map((region) => regionNames?.of(region) ?? region);
	return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** One country calling code's numbering, its patterns compiled on first use. */
export class Numbering {
	/** Dialled before a number at home: `0`, `06`, `8`, `1`, or empty. */
	readonly trunkPrefix: string;
	/** Its numbers may start with 0 (Italy's 06…), so a 0 is no trunk prefix unless a rule says so. */
	readonly keepsZero: boolean;
	private readonly plan: RegExp;
	private readonly others: RegExp | undefined;
	private readonly home: RegExp;
	/** The national prefix for parsing as text, where it is plain digits (most countries: `0`). */
	private readonly literalPrefix: string | undefined;
	private readonly prefixRule: RegExp | undefined;
	private readonly transform: string | undefined;
	private readonly lengths: readonly number[];

	constructor(
		readonly code: string,
		private readonly generated: GeneratedNumbering,
	) {
		this.trunkPrefix = generated.trunk ?? '';
		this.keepsZero = generated.keepsZero === true;
		this.plan = sticky(generated.plan);
		this.others = generated.others === undefined ? undefined : sticky(generated.others);
		this.home = sticky(generated.home);
		const parsing = generated.parsing ?? generated.trunk;
		const literal = parsing !== undefined && /^\d+$/.test(parsing);
		this.literalPrefix = literal ? parsing : undefined;
		this.prefixRule =
			literal || parsing === undefined ? undefined : new RegExp(`(?:${parsing})`, 'y');
		this.transform = generated.transform;
		this.lengths = generated.lengths;
	}

	/** Whether `digits` from `from` on are a number of the plan of any region of the code. */
	fits(digits: string, from = 0): boolean {
		if (matchesFrom(this.plan, digits, from)) return true;
		return this.others !== undefined && matchesFrom(this.others, digits, from);
	}

	/** Whether `digits` are one of its mobiles (or landlines of few lengths) as written without a trunk prefix. */
	fitsHome(digits: string): boolean {
		return matchesFrom(this.home, digits, 0);
	}

	/**
	 * Numbers are written at home without a trunk prefix: there is none, or it is mostly left out
	 * (North America's 1, India's 0), so one given without it was not lost.
	 */
	get writtenWithoutTrunkPrefix(): boolean {
		return this.trunkPrefix === '' || this.generated.trunkOptional === true;
	}

	/** "UK number", "number of Hungary": with an article (`withArticle`) or "no" in reasons. */
	get noun(): string {
		const adjective = ADJECTIVES[this.code];
		return adjective
			? `${adjective} number`
			: `number of ${namesOf(this.generated.regions.split(' '))}`;
	}

	/**
	 * Where the national significant number starts in `digits` (`from` being where its national
	 * form starts), or what it is where a rule rewrites it. As libphonenumber's extractNationalNumber:
	 * the national prefix is kept where the number without it would be no number, or too short,
	 * while the number with it is one (Russia's 8 800… toll-free numbers).
	 */
	nationalStart(digits: string, from: number): number | string {
		const after = this.withoutPrefix(digits, from);
		if (after === from) return from;
		// Most numbers never start with 0, so 0… is no number with its 0: no pattern to run then.
		const mayFitWith = this.keepsZero || digits.charCodeAt(from) !== 48;
		if (mayFitWith && matchesFrom(this.plan, digits, from)) {
			const fitsAfter =
				typeof after === 'string'
					? matchesFrom(this.plan, after, 0)
					: matchesFrom(this.plan, digits, after);
			if (!fitsAfter) return from;
		}
		const length = typeof after === 'string' ? after.length : digits.length - after;
		return this.possibleLength(length) ? after : from;
	}

	/** As libphonenumber's extractNationalNumberFromPossiblyIncompleteNumber, in place. */
	private withoutPrefix(digits: string, from: number): number | string {
		if (this.literalPrefix !== undefined)
			return digits.startsWith(this.literalPrefix, from) ? from + this.literalPrefix.length : from;
		if (this.prefixRule === undefined) return from;
		this.prefixRule.lastIndex = from;
		const match = this.prefixRule.exec(digits);
		if (match === null) return from;
		const end = from + match[0].length;
		// Only the last group tells whether the rule captured anything (libphonenumber's own test).
		if (this.transform === undefined || !match[match.length - 1]) return end;
		const rewritten = this.transform.replace(/\$(\d)/g, (_, group: string) => match[+group] ?? '');
		return rewritten + digits.slice(end);
	}

	/** Not too short nor of a length between its possible ones; too long is for the plan to refuse. */
	private possibleLength(length: number): boolean {
		const { lengths } = this;
		if (length < lengths[0]) return false;
		return length > lengths[lengths.length - 1] || lengths.includes(length);
	}
}

/**
 * Built on first use, by the calling code as a number (codes are prefix-free, so 1 and 7 stand
 * alone); null where the number is no code.
 */
const byNumber: Array<Numbering | null | undefined> = new Array<undefined>(1000).fill(undefined);

function numberingByNumber(number: number): Numbering | undefined {
	let numbering = byNumber[number];
	if (numbering === undefined) {
		const code = String(number);
		numbering = Object.hasOwn(NUMBERINGS, code) ? new Numbering(code, NUMBERINGS[code]) : null;
		byNumber[number] = numbering;
	}
	return numbering ?? undefined;
}

/** A country calling code as written: 1 to 3 digits, not starting with 0. */
const CALLING_CODE = /^[1-9]\d{0,2}$/;

/** The numbering of a country calling code (`353`, `1`); undefined for any other text. */
export function numberingOf(code: string): Numbering | undefined {
	// Made once: a regular expression literal here would be a new object for every number read.
	return CALLING_CODE.test(code) ? numberingByNumber(Number(code)) : undefined;
}

/** The numbering of the code that takes the first `length` (1 to 3) digits, read in place. */
export function numberingAt(digits: string, length: number): Numbering | undefined {
	if (digits.length < length || digits.charCodeAt(0) === 48) return undefined;
	let number = 0;
	for (let i = 0; i < length; i++) number = number * 10 + digits.charCodeAt(i) - 48;
	return numberingByNumber(number);
}

/** "an Irish number", "a UK number" (said "you-kay"), "a number of Hungary". */
export function withArticle(noun: string): string {
	return /^[AEIO]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}
