// Every number a conversation reads (the provider's, the log's, the paused item's, one a person or
// staff typed): one reader, so a number matches wherever it was written.
import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { DEFAULT_COUNTRY_CODE } from '../../domain/rules';

/** The provider's international digits without "+": a first digit of 1–9 and at least 8 digits. */
const INTERNATIONAL_DIGITS = /^[1-9]\d{7,}$/;

/**
 * A number in international digits; null when it is none: the provider's and the log's digits
 * without "+" (353871234567), "+353…", "00353…" or national (087…) with `countryCode`.
 */
export function readNumber(written: string, countryCode = DEFAULT_COUNTRY_CODE): string | null {
	const value = written.trim();
	const read = normaliseMsisdn(INTERNATIONAL_DIGITS.test(value) ? `+${value}` : value, countryCode);
	return read.ok ? read.msisdn : null;
}
