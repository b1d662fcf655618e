import { COUNTRY_CALLING_CODES } from './countryCodes';
import { fitsPlan, fitsWithoutZero, NATIONAL_NUMBERINGS, withArticle } from './nationalNumbers';
import { DEFAULT_COUNTRY_CODE, IRISH_COUNTRY_CODE, LIMITS, parseCountryCode } from './rules';

/** A recipient's msisdn is at most 20 characters (docs/provider-api.md#msisdn-rules). */
export const MAX_MSISDN_LENGTH = LIMITS.msisdn;
const MIN_MSISDN_LENGTH = 8;

/**
 * Lengths of Irish national significant numbers (what follows the trunk 0 or 353) by first digit,
 * as in the general pattern Google's libphonenumber keeps for IE. A 07… or 08… number of another
 * length (a UK mobile, say) is not Irish and must not be sent as 353….
 */
const IRISH_LENGTHS: Readonly<Record<string, readonly [number, number]>> = {
	'1': [8, 10],
	'2': [7, 9],
	'4': [7, 10],
	'5': [7, 9],
	'6': [7, 9],
	'7': [9, 9],
	'8': [9, 10],
	'9': [7, 9],
};

/** An Irish mobile whose leading 0 was lost, typically by a spreadsheet storing it as a number. */
const IRISH_MOBILE_WITHOUT_ZERO = /^8[35679]\d{7}$/;

/**
 * The same for an Exclude Numbers entry under another Default Country Code: any 9-digit 8… number,
 * since most opt-outs are Irish and missing one costs more than excluding a stranger.
 */
const IRISH_NUMBER_WITHOUT_ZERO = /^8\d{8}$/;

/**
 * Country calling codes are prefix-free (ITU-T E.164): 1 and 7 stand alone, the assigned 2-digit
 * codes are these, and every other code has 3 digits.
 */
const TWO_DIGIT_CODES = new Set(
	[...COUNTRY_CALLING_CODES].filter((code) => code.length === 2).map(Number),
);

/**
 * Countries without a trunk 0 whose numbers themselves may start with 0 (Italian landlines
 * +39 06…, Côte d'Ivoire's +225 07…, Norway's 0… service numbers): after these codes a 0 is kept.
 */
const ZERO_IS_PART_OF_NUMBER = new Set([
	'39',
	'47',
	'225',
	'226',
	'227',
	'229',
	'241',
	'242',
	'247',
	'267',
	'268',
	'378',
	'501',
	'507',
	'676',
	'679',
	'687',
	'853',
	'974',
	'992',
]);

/** Pasted from Outlook, WhatsApp or a web page: direction marks, zero-width space, BOM, soft hyphen. */
const INVISIBLE = /[\u00AD\u200B\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/** Spaces (NBSP and narrow NBSP included), dashes, dots and brackets people write numbers with. */
const FORMATTING = /[\s().\-\u2010-\u2015]/g;

const ONLY_DIGITS = /^\d+$/;

/**
 * A number as a spreadsheet or JSON float writes it: digits, one point, a decimal part
 * (`353871111111.0`). Its zeros are no digits of the number. The point counts as a decimal point
 * when the digits before it are already a whole msisdn (8 or more) or at most 2 digits follow it;
 * otherwise it separates groups (`087.1234567`, `0871234.567`, and `087.123.4567` has two).
 */
const DECIMAL = /^(\+?)(\d+)\.(\d+)$/;
const MIN_WHOLE_BEFORE_POINT = 8;

/** `3.53871E+11`, `3,53871e11`: a spreadsheet showing a long number in scientific notation. */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d*)?\s*e\s*[+-]?\d+$/i;

type NormalisedNumber =
	{ ok: true; input: string; msisdn: string } | { ok: false; input: string; reason: string };

/** A number's digits and whether it was written in international form (+ or 00). */
interface Written {
	digits: string;
	international: boolean;
}

type Step<T> = T | { reason: string };

const failed = <T extends object>(step: Step<T>): step is { reason: string } => 'reason' in step;

/** A character as a reason may show it: invisible or combining ones by their code point. */
function shown(char: string): string {
	if (!/[\p{C}\p{Z}\p{M}]/u.test(char)) return `"${char}"`;
	return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The written number's digits; the bare-digit case skips all clean-up (400,000-number campaigns). */
function readWritten(input: unknown): Step<Written> {
	const raw = String(input ?? '');
	if (ONLY_DIGITS.test(raw)) return withInternationalPrefix(raw, false);
	const text = raw.replace(INVISIBLE, '').trim();
	if (text === '') return { reason: 'empty' };
	if (ONLY_DIGITS.test(text)) return withInternationalPrefix(text, false);
	const decimal = DECIMAL.exec(text);
	if (decimal && (decimal[2].length >= MIN_WHOLE_BEFORE_POINT || decimal[3].length <= 2)) {
		if (/^0+$/.test(decimal[3])) return withInternationalPrefix(decimal[2], decimal[1] === '+');
		return { reason: 'not a whole number (it has a decimal part)' };
	}
	if (SCIENTIFIC.test(text))
		return {
			reason: 'scientific notation: digits are lost (format the spreadsheet column as text)',
		};
	if (/\p{L}/u.test(text)) return { reason: 'contains letters' };
	const stray = text.replace(FORMATTING, '').match(/[^\d+]/u);
	if (stray) return { reason: `contains ${shown(stray[0])}` };
	if (text.lastIndexOf('+') > 0) return { reason: '+ is only allowed at the start' };
	const digits = text.replace(/\D/g, '');
	if (digits === '') return { reason: 'no digits' };
	return withInternationalPrefix(digits, text.startsWith('+'));
}

function withInternationalPrefix(digits: string, plus: boolean): Written {
	if (!plus && digits.startsWith('00')) return { digits: digits.slice(2), international: true };
	return { digits, international: plus };
}

/** How many of these international digits are the country calling code. */
export function countryCodeLength(digits: string): number {
	const first = digits.charCodeAt(0) - 48;
	if (first === 1 || first === 7) return 1;
	return TWO_DIGIT_CODES.has(first * 10 + digits.charCodeAt(1) - 48) ? 2 : 3;
}

/** Room for the longest number read (20 digits) and then some. */
const scratch = Buffer.allocUnsafe(32);

/**
 * `prefix + digits.slice(from)` as one string, without the slice in between: at 400,000 numbers
 * the slices alone were 12 MB of garbage. Both are ASCII digits (`\d` matches only 0-9).
 */
function joined(prefix: string, digits: string, from: number): string {
	if (prefix.length + digits.length - from > scratch.length) return prefix + digits.slice(from);
	let at = 0;
	for (let i = 0; i < prefix.length; i++) scratch[at++] = prefix.charCodeAt(i);
	for (let i = from; i < digits.length; i++) scratch[at++] = digits.charCodeAt(i);
	return scratch.toString('latin1', 0, at);
}

/** `+33 06…` → `336…`: a 0 right after the country code is the trunk 0 written by habit. */
function withoutTrunkZero(digits: string): string {
	const length = countryCodeLength(digits);
	if (digits.charCodeAt(length) !== 48) return digits;
	const code = digits.slice(0, length);
	return ZERO_IS_PART_OF_NUMBER.has(code) ? digits : joined(code, digits, length + 1);
}

/**
 * National form 0… takes the default country code. Under the Irish default, bare digits are
 * international (but for an Irish mobile that lost its 0); under another, see `bareInCountry`.
 */
function inCountry(
	digits: string,
	international: boolean,
	country: string,
): string | { reason: string } {
	if (international) {
		if (digits.startsWith('0')) return { reason: 'country prefix cannot start with 0' };
		return withoutTrunkZero(digits);
	}
	if (digits.startsWith('0'))
		return joined(country, digits, ZERO_IS_PART_OF_NUMBER.has(country) ? 0 : 1);
	if (country !== IRISH_COUNTRY_CODE) return bareInCountry(digits, country);
	if (IRISH_MOBILE_WITHOUT_ZERO.test(digits)) {
		return { reason: 'no country prefix: looks like an Irish mobile without its leading 0' };
	}
	return withoutTrunkZero(digits);
}

/**
 * Digits without +, 00 or a leading 0 under a Default Country Code other than Irish: as written
 * they are international, but they may also be the default country's number given without its
 * 0 (lost to a spreadsheet), or written as at home where there is no 0 (Spain, Italy, the US).
 * A text must not go to a stranger on a guess: when both readings are numbers, the entry is
 * refused naming both; a lost 0 is refused too (as the Irish one is); a number as written at
 * home is read as such when, as written, it is nobody's number.
 */
function bareInCountry(digits: string, country: string): string | { reason: string } {
	const asWritten = withoutTrunkZero(digits);
	const problem = asWrittenProblem(asWritten);
	const home = NATIONAL_NUMBERINGS.get(country);
	if (home === undefined || !fitsWithoutZero(country, digits))
		return problem === undefined ? asWritten : { reason: problem };
	const national = country + digits;
	const lostZero = home.trunkPrefix === '0';
	const described = lostZero
		? `${withArticle(home.adjective)} number without its leading 0 (${national})`
		: `${withArticle(home.adjective)} number as written there (${national})`;
	if (problem === undefined) {
		const code = asWritten.slice(0, countryCodeLength(asWritten));
		return {
			reason: `ambiguous: ${asWritten} as written (country code ${code}) or ${described}; write it with + and its country code`,
		};
	}
	if (lostZero)
		return {
			reason: `no country prefix: looks like ${described}; write it with its 0, or with + and its country code`,
		};
	return national;
}

/**
 * Why bare digits are nobody's number as written: too short or long, no country code, or not fitting that country's
 * plan.
 */
function asWrittenProblem(msisdn: string): string | undefined {
	const length = lengthProblem(msisdn);
	if (length !== undefined) return length;
	const codeLength = countryCodeLength(msisdn);
	const code = msisdn.slice(0, codeLength);
	if (!COUNTRY_CALLING_CODES.has(code)) {
		return 'no country prefix: it starts with no country calling code (write it with + and its country code, or in national form)';
	}
	if (code === IRISH_COUNTRY_CODE) return irishPlanProblem(msisdn, false);
	if (fitsPlan(code, msisdn, codeLength) !== false) return undefined;
	const { adjective } = NATIONAL_NUMBERINGS.get(code)!;
	return `no country prefix: as written it is no ${adjective} number (${msisdn.length - codeLength} digits after ${code} fit no ${adjective} number)`;
}

const isNational = (written: Written) => !written.international && written.digits.startsWith('0');

function lengthProblem(msisdn: string): string | undefined {
	if (msisdn.length < MIN_MSISDN_LENGTH)
		return `too short (${msisdn.length} digits, min ${MIN_MSISDN_LENGTH})`;
	if (msisdn.length > MAX_MSISDN_LENGTH)
		return `too long (${msisdn.length} digits, max ${MAX_MSISDN_LENGTH})`;
	return undefined;
}

/** Irish numbers, national or international, must fit the Irish plan; other countries are not checked. */
function irishPlanProblem(msisdn: string, writtenNationally: boolean): string | undefined {
	if (!msisdn.startsWith(IRISH_COUNTRY_CODE)) return undefined;
	// Read in place: most of a large campaign is Irish, and a slice per number adds up.
	const first = msisdn[IRISH_COUNTRY_CODE.length];
	const digits = msisdn.length - IRISH_COUNTRY_CODE.length;
	const lengths = IRISH_LENGTHS[first];
	if (lengths && digits >= lengths[0] && digits <= lengths[1]) return undefined;
	// A national number too long for Ireland is most likely another country's, written without its code.
	if (writtenNationally && (!lengths || digits > lengths[1])) {
		return 'no country prefix: national numbers other than Irish 0… need one';
	}
	if (!lengths)
		return `not an Irish number: nothing in the Irish plan starts with ${first} after 353`;
	const [min, max] = lengths;
	const after = writtenNationally ? 'after the 0' : 'after 353';
	const start = writtenNationally ? `0${first}` : first;
	const expected = min === max ? `${min}` : `${min} to ${max}`;
	return `${digits < min ? 'too short' : 'too long'} (${digits} digits ${after}, Irish numbers starting ${start} have ${expected})`;
}

/**
 * A number written in national form must fit its country's plan, where nationalNumbers.ts covers
 * the country (Ireland has its own reasons, in irishPlanProblem): 087… under 44 is no UK number.
 */
function nationalPlanProblem(msisdn: string, country: string): string | undefined {
	if (country === IRISH_COUNTRY_CODE || fitsPlan(country, msisdn, country.length) !== false)
		return undefined;
	const { adjective } = NATIONAL_NUMBERINGS.get(country)!;
	return `no country prefix: fits no ${adjective} number in national form (numbers of other countries need their country code)`;
}

/** What is wrong with a number read, if anything: its length, or the plan of the country it is in. */
function problemOf(
	msisdn: string,
	writtenNationally: boolean,
	country: string,
): string | undefined {
	const problem = lengthProblem(msisdn) ?? irishPlanProblem(msisdn, writtenNationally);
	if (problem !== undefined || !writtenNationally) return problem;
	return nationalPlanProblem(msisdn, country);
}

/**
 * The provider's rules are in docs/provider-api.md#msisdn-rules. Invisible marks go first; spaces,
 * dashes, dots, brackets and a leading + or 00 are
 * stripped; a 0 after the country code is the trunk 0 and is dropped (+33 06… → 336…, +353 (0)87… →
 * 35387…); national form 0… takes defaultCountryCode (Irish by default: 087 123 4567 → 353871234567)
 * and must fit that country's plan where nationalNumbers.ts knows it; Irish numbers must fit the
 * Irish plan; 8..20 digits. Under the Irish default, other numbers must carry their country prefix;
 * under another, bare digits are read by `bareInCountry` (refused when they could be two numbers).
 * A spreadsheet float's decimal zeros are no digits (353871111111.0 → 353871111111); any other
 * decimal part, and scientific notation (3.53871E+11, digits lost), are refused with the reason.
 */
export function normaliseMsisdn(
	input: string,
	defaultCountryCode: string = DEFAULT_COUNTRY_CODE,
): NormalisedNumber {
	const fail = (reason: string): NormalisedNumber => ({ ok: false, input, reason });
	const written = readWritten(input);
	if (failed(written)) return fail(written.reason);
	const country = parseCountryCode(defaultCountryCode);
	if (!country.ok)
		return fail(`default country code "${defaultCountryCode}" is not a country calling code`);
	const msisdn = inCountry(written.digits, written.international, country.code);
	if (typeof msisdn !== 'string') return fail(msisdn.reason);
	const problem = problemOf(msisdn, isNational(written), country.code);
	return problem ? fail(problem) : { ok: true, input, msisdn };
}

/**
 * What `normaliseMsisdn` gives for a valid number, or undefined where it gives a reason, for a
 * country code already read by `parseCountryCode` (its `code`: an assigned country calling code).
 * A number written as bare digits costs only its msisdn string (a 400,000-number list must not
 * leave several objects per number behind).
 */
export function toMsisdn(input: string, countryCode: string): string | undefined {
	if (!ONLY_DIGITS.test(input) || input.startsWith('00')) {
		const number = normaliseMsisdn(input, countryCode);
		return number.ok ? number.msisdn : undefined;
	}
	const msisdn = inCountry(input, false, countryCode);
	if (typeof msisdn !== 'string') return undefined;
	return problemOf(msisdn, input.startsWith('0'), countryCode) === undefined ? msisdn : undefined;
}

/**
 * The msisdns an Exclude Numbers entry stands for. Excluding a stranger costs little and texting
 * an opted-out number a lot, so an entry in bare digits stands for every reading: as written (where
 * the recipients' rules find it ambiguous too), as the default country's number without its 0 or
 * as written there (7911123456 under 44 → 7911123456 and 447911123456), and as an Irish number
 * whose 0 a spreadsheet dropped (871234567 → 353871234567). [] when unreadable.
 */
export function suppressionForms(entry: string, defaultCountryCode: string): string[] {
	const forms: string[] = [];
	const add = (msisdn: string) => {
		if (!forms.includes(msisdn) && lengthProblem(msisdn) === undefined) forms.push(msisdn);
	};
	const number = normaliseMsisdn(entry, defaultCountryCode);
	if (number.ok) add(number.msisdn);
	const written = readWritten(entry);
	const country = parseCountryCode(defaultCountryCode);
	if (failed(written) || written.international || written.digits.startsWith('0') || !country.ok)
		return forms;
	const { digits } = written;
	const asWritten = withoutTrunkZero(digits);
	// Under the Irish default, bare digits are read as today's recipients' rules read them (above).
	if (country.code !== IRISH_COUNTRY_CODE && irishPlanProblem(asWritten, false) === undefined)
		add(asWritten);
	for (const national of nationalReadings(digits, country.code)) add(national);
	if (country.code !== IRISH_COUNTRY_CODE && IRISH_NUMBER_WITHOUT_ZERO.test(digits))
		add(IRISH_COUNTRY_CODE + digits);
	return forms;
}

/**
 * Every number of this country that bare digits may be written without its leading 0 or country
 * code: its whole plan, not only mobiles (an Italian landline is kept with its 0 in the number).
 */
function nationalReadings(digits: string, country: string): string[] {
	const readings: string[] = [];
	if (fitsPlan(country, digits)) readings.push(country + digits);
	if (ZERO_IS_PART_OF_NUMBER.has(country) && fitsPlan(country, `0${digits}`))
		readings.push(`${country}0${digits}`);
	return readings;
}

/**
 * One number, a comma/semicolon/newline separated list, a number (JS number), or an array (possibly
 * nested, of strings/numbers) → trimmed non-empty strings in order. null/undefined/'' → [].
 */
export function splitRecipients(value: unknown): string[] {
	// One number per row is the common case: an exact one-element array, not a growable one.
	if (typeof value === 'string' && !SEPARATORS.test(value)) {
		const entry = value.trim();
		return entry === '' ? [] : [entry];
	}
	const out: string[] = [];
	collectRecipients(value, out);
	return out;
}

const SEPARATORS = /[,;\r\n]+/;

/**
 * What `splitRecipients` gives, without copying a list that is already one trimmed, non-empty
 * string per number (a column of 400,000 numbers is read in place). Never modify the result.
 */
export function recipientEntries(value: unknown): readonly string[] {
	if (!Array.isArray(value) || value.length < 2) return splitRecipients(value);
	// Indexed: an iterator's result object per entry would be garbage at 400,000 entries.
	for (let i = 0; i < value.length; i++) {
		const entry: unknown = value[i];
		if (
			typeof entry !== 'string' ||
			entry === '' ||
			entry.trim() !== entry ||
			SEPARATORS.test(entry)
		)
			return splitRecipients(value);
	}
	return value as string[];
}

/** Appends in place: a large array of numbers must not become one small array per entry. */
function collectRecipients(value: unknown, out: string[]): void {
	if (value === null || value === undefined) return;
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) collectRecipients(value[i], out);
		return;
	}
	// An object is kept whole so the caller can show it in its "not a number" message.
	if (typeof value === 'object') {
		out.push(JSON.stringify(value));
		return;
	}
	const text = typeof value === 'number' ? numberAsWritten(value) : String(value);
	if (!SEPARATORS.test(text)) {
		const entry = text.trim();
		if (entry !== '') out.push(entry);
		return;
	}
	for (const part of text.split(SEPARATORS)) {
		const entry = part.trim();
		if (entry !== '') out.push(entry);
	}
}

/**
 * A JS number as text: a whole number below 2^53 as its digits (353871111111, never
 * `353871111111.0`); a larger one in scientific notation, since its last digits are already lost
 * and must not be sent as someone else's number; a fraction as JS prints it (refused by the reader).
 */
export function numberAsWritten(value: number): string {
	if (Number.isSafeInteger(value) || !Number.isInteger(value)) return String(value);
	return value.toExponential();
}
