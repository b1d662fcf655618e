// Phone numbers read: recipient lists split, each number normalised to its international msisdn.
import { COUNTRY_CALLING_CODES } from './countryCodes';
import type { Numbering } from './nationalNumbers';
import { numberingAt, numberingOf, withArticle } from './nationalNumbers';
import { DEFAULT_COUNTRY_CODE, IRISH_COUNTRY_CODE, LIMITS, parseCountryCode } from './rules';

/** A recipient's msisdn is at most 20 characters (docs/provider-api.md#msisdn-rules). */
export const MAX_MSISDN_LENGTH = LIMITS.msisdn;
const MIN_MSISDN_LENGTH = 8;

/**
 * Lengths of Irish national significant numbers (what follows the trunk 0 or 353) by first digit,
 * as in the general pattern Google's libphonenumber keeps for IE (a test holds them to it). A 07…
 * or 08… number of another length (a UK mobile, say) is not Irish and must not be sent as 353….
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

/** Pasted from Outlook, WhatsApp or a web page: direction marks, zero-width space, BOM, soft hyphen. */
const INVISIBLE = /[\u00AD\u200B\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/** Spaces (NBSP and narrow NBSP included), dashes, dots and brackets people write numbers with. */
const FORMATTING = /[\s().\-\u2010-\u2015]/g;

const ONLY_DIGITS = /^\d+$/;

// Made once, not per number read: a regular expression literal in a function is a new object on
// every call, garbage 400,000 times over in a large campaign.
const ONLY_ZEROS = /^0+$/;
const LETTER = /\p{L}/u;
const STRAY = /[^\d+]/u;
const NOT_DIGITS = /\D/g;

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

/**
 * A number's digits and whether it was written in international form (+ or 00); `zeroAt`: how many
 * of the digits come before a `(0)` (the optional trunk 0 of `+44 (0)20…`), -1 without one.
 */
interface Written {
	digits: string;
	international: boolean;
	zeroAt: number;
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
		if (ONLY_ZEROS.test(decimal[3])) return withInternationalPrefix(decimal[2], decimal[1] === '+');
		return { reason: 'not a whole number (it has a decimal part)' };
	}
	if (SCIENTIFIC.test(text))
		return {
			reason: 'scientific notation: digits are lost (format the spreadsheet column as text)',
		};
	if (LETTER.test(text)) return { reason: 'contains letters' };
	const stray = text.replace(FORMATTING, '').match(STRAY);
	if (stray) return { reason: `contains ${shown(stray[0])}` };
	if (text.lastIndexOf('+') > 0) return { reason: '+ is only allowed at the start' };
	const digits = text.replace(NOT_DIGITS, '');
	if (digits === '') return { reason: 'no digits' };
	return withInternationalPrefix(digits, text.startsWith('+'), zeroMarkAt(text));
}

/** `(0)`, `( 0 )`: a trunk 0 written as optional. */
const ZERO_MARK = /\(\s*0\s*\)/;

/** How many digits come before the `(0)` of the text; -1 without one. */
function zeroMarkAt(text: string): number {
	const mark = ZERO_MARK.exec(text);
	return mark === null ? -1 : text.slice(0, mark.index).replace(NOT_DIGITS, '').length;
}

function withInternationalPrefix(digits: string, plus: boolean, zeroAt = -1): Written {
	if (!plus && digits.startsWith('00'))
		return { digits: digits.slice(2), international: true, zeroAt: zeroAt - 2 };
	return { digits, international: plus, zeroAt };
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

/**
 * Where a national significant number starts (see Numbering.nationalStart), or what it is, and
 * past a 0 that the country's numbers never start with: `+34 (0) 612…` or `0612…` under 34 can
 * only be a trunk 0 written by habit.
 */
function nationalStart(numbering: Numbering, digits: string, from: number): number | string {
	const start = numbering.nationalStart(digits, from);
	if (start !== from || numbering.keepsZero || digits.charCodeAt(from) !== 48) return start;
	return from + 1;
}

/** The country code, then the national significant number that starts at `from` (or `start` itself). */
function withCode(numbering: Numbering, digits: string, start: number | string): string {
	return typeof start === 'string' ? numbering.code + start : joined(numbering.code, digits, start);
}

/**
 * International digits as sent: what follows the code read as libphonenumber reads it (`+33 06…`
 * → `336…`, `+7 8 912…` → `7912…`: a trunk prefix written by habit goes), a 0 kept where numbers
 * start with one (`+39 06…`).
 */
function internationalForm(digits: string, codeLength = countryCodeLength(digits)): string {
	const numbering = numberingAt(digits, codeLength);
	if (numbering === undefined) {
		// No country's code: a 0 after it goes, as a trunk 0 would (the length decides the rest).
		if (digits.charCodeAt(codeLength) !== 48) return digits;
		return joined(digits.slice(0, codeLength), digits, codeLength + 1);
	}
	const start = nationalStart(numbering, digits, codeLength);
	return start === codeLength ? digits : withCode(numbering, digits, start);
}

/**
 * `+39 (0)3…`: a 0 in brackets after the code is a trunk 0 written as optional, but where numbers
 * start with 0 it may be the number's own. Each reading that fits the country's plan; the usual
 * reading when none does.
 */
function zeroMarkReadings(digits: string, codeLength: number): string[] {
	const usual = internationalForm(digits, codeLength);
	const numbering = numberingAt(digits, codeLength);
	if (numbering === undefined) return [usual];
	const without = internationalForm(joined(numbering.code, digits, codeLength + 1), codeLength);
	const readings = [usual, without].filter(
		(msisdn, i, all) => all.indexOf(msisdn) === i && numbering.fits(msisdn, codeLength),
	);
	return readings.length > 0 ? readings : [usual];
}

/**
 * International digits as sent, a `(0)` after the code read both ways: refused naming both where
 * each is a number (`zeroMarkReadings`).
 */
function internationally(digits: string, zeroAt: number): Step<string> {
	if (digits.charCodeAt(0) === 48) return { reason: 'country prefix cannot start with 0' };
	const codeLength = countryCodeLength(digits);
	if (zeroAt !== codeLength) return internationalForm(digits, codeLength);
	const readings = zeroMarkReadings(digits, codeLength);
	if (readings.length === 1) return readings[0];
	return {
		reason: `ambiguous: ${readings[0]} with the 0 in brackets or ${readings[1]} without it; write it without the brackets, or without the (0)`,
	};
}

/**
 * The msisdn the digits stand for under the Default Country Code `country`: international ones
 * as written, national form 0… in that country (its national prefix read as libphonenumber reads
 * it: 06… in Hungary), and bare digits as `bareInCountry` reads them, but under the Irish default:
 * there they are international, unless an Irish mobile that lost its 0.
 */
function inCountry(
	digits: string,
	international: boolean,
	country: string,
	zeroAt = -1,
): Step<string> {
	if (international) return internationally(digits, zeroAt);
	const numbering = numberingOf(country);
	if (numbering === undefined)
		return { reason: `default country code "${country}" is not a country calling code` };
	if (digits.charCodeAt(0) === 48)
		return withCode(numbering, digits, nationalStart(numbering, digits, 0));
	if (country !== IRISH_COUNTRY_CODE) return bareInCountry(digits, numbering);
	if (IRISH_MOBILE_WITHOUT_ZERO.test(digits)) {
		return { reason: 'no country prefix: looks like an Irish mobile without its leading 0' };
	}
	return internationalForm(digits);
}

/** A number bare digits may be, and how it was read (for reasons). */
interface Reading {
	msisdn: string;
	described: string;
	/** The default country's number without its trunk prefix: refused, not read as such. */
	lostTrunkPrefix: boolean;
}

/**
 * Digits without +, 00 or a leading 0 under a Default Country Code other than Irish: as written
 * they are international, but they may also be the default country's number in national form
 * where its trunk prefix is no 0 (Russia's 8 912…), given without its trunk prefix (lost to a
 * spreadsheet), or written as at home where there is none (Spain, Italy, the US). A text must not
 * go to a stranger on a guess: when two readings are numbers, the entry is refused naming them; a
 * lost trunk prefix is refused too (as the Irish 0 is); a number as written at home is read as such
 * when, as written, it is nobody's number.
 */
function bareInCountry(digits: string, numbering: Numbering): Step<string> {
	const readings = bareReadings(digits, numbering);
	if (readings.length > 1) {
		const named = readings.map((reading) => reading.described).join(' or ');
		return { reason: `ambiguous: ${named}; write it with + and its country code` };
	}
	// No reading: as written it is no number, for a reason (else it would be a reading).
	if (readings.length === 0) return { reason: asWrittenProblem(internationalForm(digits))! };
	const [{ msisdn, described, lostTrunkPrefix }] = readings;
	if (!lostTrunkPrefix) return msisdn;
	const trunk = numbering.trunkPrefix;
	return {
		reason: `no country prefix: looks like ${described}; write it with its ${trunk}, or with + and its country code`,
	};
}

/** Each number bare digits may be (see bareInCountry), once, as written first. */
function bareReadings(digits: string, numbering: Numbering): Reading[] {
	const readings: Reading[] = [];
	const add = (msisdn: string, described: string, lostTrunkPrefix = false) => {
		if (lengthProblem(msisdn) === undefined && !readings.some((r) => r.msisdn === msisdn))
			readings.push({ msisdn, described, lostTrunkPrefix });
	};
	const asWritten = internationalForm(digits);
	if (asWrittenProblem(asWritten) === undefined) {
		const code = asWritten.slice(0, countryCodeLength(asWritten));
		add(asWritten, `${asWritten} as written (country code ${code})`);
	}
	const number = withArticle(numbering.noun);
	const national = withTrunkPrefix(digits, numbering);
	if (national !== undefined) add(national, `${number} in national form (${national})`);
	// Any number of the country, landlines and services too: a Luxembourg 49 19 57 404 is not sent
	// to Germany as 491957404 when both could be meant.
	if (
		numbering.fitsHome(digits) ||
		numbering.fits(numbering.code + digits, numbering.code.length)
	) {
		const msisdn = numbering.code + digits;
		if (numbering.writtenWithoutTrunkPrefix) add(msisdn, `${number} as written there (${msisdn})`);
		else add(msisdn, `${number} without its leading ${numbering.trunkPrefix} (${msisdn})`, true);
	}
	return readings;
}

/**
 * Bare digits read as a national form whose trunk prefix is no 0 (8 912… under 7, 1 202… under 1),
 * when that is a number of the country.
 */
function withTrunkPrefix(digits: string, numbering: Numbering): string | undefined {
	const start = numbering.nationalStart(digits, 0);
	if (start === 0) return undefined;
	const msisdn = withCode(numbering, digits, start);
	return numbering.fits(msisdn, numbering.code.length) ? msisdn : undefined;
}

/**
 * Why bare digits are nobody's number as written: too short or long, no country code, or not
 * fitting that country's plan.
 */
function asWrittenProblem(msisdn: string): string | undefined {
	const length = lengthProblem(msisdn);
	if (length !== undefined) return length;
	const codeLength = countryCodeLength(msisdn);
	const numbering = numberingAt(msisdn, codeLength);
	if (numbering === undefined) {
		return 'no country prefix: it starts with no country calling code (write it with + and its country code, or in national form)';
	}
	if (numbering.code === IRISH_COUNTRY_CODE) return irishPlanProblem(msisdn, false);
	if (numbering.fits(msisdn, codeLength)) return undefined;
	const none = `no ${numbering.noun}`;
	return `no country prefix: as written it is ${none} (${msisdn.length - codeLength} digits after ${numbering.code} fit ${none})`;
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
 * A number written in national form must fit its country's plan (Ireland has its own reasons, in
 * irishPlanProblem): 087… under 44 is no UK number.
 */
function nationalPlanProblem(msisdn: string, country: string): string | undefined {
	if (country === IRISH_COUNTRY_CODE) return undefined;
	const numbering = numberingOf(country)!;
	if (numbering.fits(msisdn, country.length)) return undefined;
	return `no country prefix: fits no ${numbering.noun} in national form (numbers of other countries need their country code)`;
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
 * dashes, dots, brackets and a leading + or 00 are stripped; after a country code, a trunk prefix
 * written by habit goes (+33 06… → 336…, +353 (0)87… → 35387…, +7 8 912… → 7912…), as
 * libphonenumber's metadata reads it (numberingPlans.generated.json), and a 0 stays where numbers
 * start with one (+39 06…); a (0) that may be either is refused naming both. National form 0…
 * takes countryCode (Irish by default: 087 123 4567 → 353871234567; 06 30… under 36 →
 * 3630…) and must fit that country's plan; Irish numbers must fit the Irish plan; 8..20 digits.
 * Under the Irish default, other numbers must carry their country prefix; under another, bare
 * digits are read by `bareInCountry` (refused when they could be two numbers). A spreadsheet
 * float's decimal zeros are no digits (353871111111.0 → 353871111111); any other decimal part, and
 * scientific notation (3.53871E+11, digits lost), are refused with the reason.
 */
export function normaliseMsisdn(
	input: string,
	countryCode: string = DEFAULT_COUNTRY_CODE,
): NormalisedNumber {
	const fail = (reason: string): NormalisedNumber => ({ ok: false, input, reason });
	const written = readWritten(input);
	if (failed(written)) return fail(written.reason);
	const country = parseCountryCode(countryCode);
	if (!country.ok)
		return fail(`default country code "${countryCode}" is not a country calling code`);
	const { digits, international, zeroAt } = written;
	const msisdn = inCountry(digits, international, country.code, zeroAt);
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
 * an opted-out number a lot, so an entry stands for every reading: a `(0)` after the code with and
 * without its 0 (`+39 (0)3…`); bare digits as written (where the recipients' rules find them
 * ambiguous too), as the default country's number in national form (8 912… under 7), without its
 * 0 or as written there (7911123456 under 44 → 7911123456 and 447911123456), and as an Irish
 * number whose 0 a spreadsheet dropped (871234567 → 353871234567). [] when unreadable.
 */
export function suppressionForms(entry: string, countryCode: string): string[] {
	const forms: string[] = [];
	const add = (msisdn: string) => {
		if (!forms.includes(msisdn) && lengthProblem(msisdn) === undefined) forms.push(msisdn);
	};
	const number = normaliseMsisdn(entry, countryCode);
	if (number.ok) add(number.msisdn);
	const written = readWritten(entry);
	const country = parseCountryCode(countryCode);
	if (failed(written) || !country.ok) return forms;
	for (const msisdn of otherReadings(written, country.code)) add(msisdn);
	return forms;
}

/** The readings of an entry besides the one the recipients' rules take (see suppressionForms). */
function otherReadings({ digits, international, zeroAt }: Written, country: string): string[] {
	if (international) {
		const codeLength = countryCodeLength(digits);
		if (digits.startsWith('0') || zeroAt !== codeLength) return [];
		return zeroMarkReadings(digits, codeLength);
	}
	if (digits.startsWith('0')) return [];
	const readings: string[] = [];
	const asWritten = internationalForm(digits);
	// Under the Irish default, bare digits are read as today's recipients' rules read them (above).
	if (country !== IRISH_COUNTRY_CODE && irishPlanProblem(asWritten, false) === undefined)
		readings.push(asWritten);
	readings.push(...nationalReadings(digits, numberingOf(country)!));
	if (country !== IRISH_COUNTRY_CODE && IRISH_NUMBER_WITHOUT_ZERO.test(digits))
		readings.push(IRISH_COUNTRY_CODE + digits);
	return readings;
}

/**
 * Every number of this country that bare digits may be in national form: with a trunk prefix that
 * is no 0 (8 912… in Russia), or without their leading 0 or country code, its whole plan, not only
 * mobiles (an Italian landline is kept with its 0 in the number).
 */
function nationalReadings(digits: string, numbering: Numbering): string[] {
	const readings: string[] = [];
	const national = withTrunkPrefix(digits, numbering);
	if (national !== undefined) readings.push(national);
	if (numbering.fits(digits)) readings.push(numbering.code + digits);
	if (numbering.keepsZero && numbering.fits(`0${digits}`))
		readings.push(`${numbering.code}0${digits}`);
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
