// The numbers a conversation reads back (the provider's, the log's, the paused item's): international digits.
import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { DEFAULT_COUNTRY_CODE } from '../../domain/rules';

/** The provider's and our saved msisdns are international digits: never read them in a national form. */
export const asInternational = (msisdn: string) => (/^\d+$/.test(msisdn) ? `+${msisdn}` : msisdn);

/** A number read back, in international digits; null when it is no phone number. */
export function savedNumber(msisdn: string, countryCode = DEFAULT_COUNTRY_CODE): string | null {
	const read = normaliseMsisdn(asInternational(msisdn), countryCode);
	return read.ok ? read.msisdn : null;
}

/**
 * A number as a person or staff write it, in international digits; null when it is none: the
 * provider's international digits without "+" (353871234567), "+353…", "00353…" or national (087…).
 */
export function writtenNumber(written: string, countryCode = DEFAULT_COUNTRY_CODE): string | null {
	const value = written.trim();
	const read = normaliseMsisdn(/^[1-9]\d{7,}$/.test(value) ? `+${value}` : value, countryCode);
	return read.ok ? read.msisdn : null;
}
