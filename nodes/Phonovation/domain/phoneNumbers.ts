import { DEFAULT_COUNTRY_CODE, IRISH_COUNTRY_CODE, LIMITS, parseCountryCode } from './rules';

/** Service spec §2.2 / §8: a recipient's msisdn is at most 20 characters. */
export const MAX_MSISDN_LENGTH = LIMITS.msisdn;
const MIN_MSISDN_LENGTH = 8;

/**
 * The Irish numbering plan's national significant numbers (what follows the trunk 0), as in the
 * general pattern Google's libphonenumber keeps for IE: a national 07… or 08… number of the wrong
 * length (a UK mobile, say) is not Irish and must not be sent as 353….
 */
const IRISH_NATIONAL_NUMBER = /^(?:1\d{7,9}|[2569]\d{6,8}|4\d{6,9}|7\d{8}|8\d{8,9})$/;

/** An Irish mobile whose leading 0 was lost, typically by a spreadsheet storing it as a number. */
const IRISH_MOBILE_WITHOUT_ZERO = /^8[35679]\d{7}$/;

/** Countries whose national numbers never start with 0, so a 0 right after the code is a misplaced trunk zero. */
const TRUNK_ZERO_COUNTRIES = [IRISH_COUNTRY_CODE, '44'];

const FORMATTING = /[\s().\-\u2010-\u2015]/g;

const ONLY_DIGITS = /^\d+$/;

export type NormalisedNumber =
	{ ok: true; input: string; msisdn: string } | { ok: false; input: string; reason: string };

function withoutTrunkZero(digits: string): string {
	for (const code of TRUNK_ZERO_COUNTRIES) {
		if (digits.startsWith(`${code}0`)) return code + digits.slice(code.length + 1);
	}
	return digits;
}

/** "(0)" written after a country code (+353 (0)87…) is the trunk zero; at the very start it is national. */
function withoutBracketedTrunkZero(text: string): string {
	return text.replace(/\(\s*0\s*\)/g, (match, offset: number) =>
		/\d/.test(text.slice(0, offset)) ? '' : match,
	);
}

/**
 * Spec §2.2: strip spaces, dashes, dots, brackets, a leading + or 00; "(0)" after a country code is a
 * trunk zero and is dropped (+353 (0)87… → 35387…); national form 0… becomes defaultCountryCode + rest
 * (Irish by default: 087 123 4567 → 353871234567); numbers without + / 00 / leading 0 are taken as
 * already international (must carry their country prefix); result digits only, 8..20 digits.
 */
export function normaliseMsisdn(input: string, defaultCountryCode: string = DEFAULT_COUNTRY_CODE): NormalisedNumber {
	const fail = (reason: string): NormalisedNumber => ({ ok: false, input, reason });
	const text = String(input ?? '').trim();
	if (text === '') return fail('empty');
	// Most numbers arrive as bare digits; skipping the clean-up for them keeps a 400,000-number
	// campaign from producing millions of throw-away strings.
	const bare = ONLY_DIGITS.test(text);
	if (!bare) {
		if (/\p{L}/u.test(text)) return fail('contains letters');
		const stray = text.replace(FORMATTING, '').match(/[^\d+]/u);
		if (stray) return fail(`contains "${stray[0]}"`);
		if (text.lastIndexOf('+') > 0) return fail('+ is only allowed at the start');
	}

	const countryCode = parseCountryCode(defaultCountryCode);
	if (!countryCode.ok) return fail(`default country code "${defaultCountryCode}" is not 1 to 3 digits`);
	const country = countryCode.code;

	let international = text.startsWith('+');
	let digits = bare ? text : withoutBracketedTrunkZero(text).replace(/\D/g, '');
	if (digits === '') return fail('no digits');
	if (!international && digits.startsWith('00')) {
		international = true;
		digits = digits.slice(2);
	}

	let msisdn: string;
	if (international) {
		if (digits.startsWith('0')) return fail('country prefix cannot start with 0');
		msisdn = withoutTrunkZero(digits);
	} else if (digits.startsWith('0')) {
		const national = digits.slice(1);
		msisdn = country + national;
		if (country === IRISH_COUNTRY_CODE && msisdn.length <= MAX_MSISDN_LENGTH) {
			if (national.length < 7) {
				return fail(`too short (${national.length} digits after the 0, Irish numbers have 7 to 10)`);
			}
			if (!IRISH_NATIONAL_NUMBER.test(national)) {
				return fail('no country prefix: national numbers other than Irish 0… need one');
			}
		}
	} else {
		if (country === IRISH_COUNTRY_CODE && IRISH_MOBILE_WITHOUT_ZERO.test(digits)) {
			return fail('no country prefix: looks like an Irish mobile without its leading 0');
		}
		msisdn = withoutTrunkZero(digits);
	}

	if (msisdn.length < MIN_MSISDN_LENGTH) {
		return fail(`too short (${msisdn.length} digits, min ${MIN_MSISDN_LENGTH})`);
	}
	if (msisdn.length > MAX_MSISDN_LENGTH) {
		return fail(`too long (${msisdn.length} digits, max ${MAX_MSISDN_LENGTH})`);
	}
	return { ok: true, input, msisdn };
}

/**
 * One number, a comma/semicolon/newline separated list, a number (JS number), or an array (possibly
 * nested, of strings/numbers) → trimmed non-empty strings in order. null/undefined/'' → [].
 */
export function splitRecipients(value: unknown): string[] {
	const out: string[] = [];
	collectRecipients(value, out);
	return out;
}

const SEPARATORS = /[,;\r\n]+/;

/** Appends in place: a large array of numbers must not become one small array per entry. */
function collectRecipients(value: unknown, out: string[]): void {
	if (value === null || value === undefined) return;
	if (Array.isArray(value)) {
		for (const entry of value) collectRecipients(entry, out);
		return;
	}
	// An object is kept whole so the caller can show it in its "not a number" message.
	if (typeof value === 'object') {
		out.push(JSON.stringify(value));
		return;
	}
	const text = String(value);
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
