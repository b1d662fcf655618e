import { normaliseMsisdn, splitRecipients } from '../../../domain/phoneNumbers';
import { IRISH_COUNTRY_CODE } from '../../../domain/rules';

/** An Exclude Numbers list, normalised: the numbers it stands for, and the entries it could not read. */
export interface Suppression {
	numbers: Set<string>;
	unreadable: string[];
}

/** An Irish mobile whose leading 0 a spreadsheet dropped (871234567). */
const IRISH_MOBILE_WITHOUT_ZERO = /^8[35679]\d{7}$/;

function forms(entry: string, countryCode: string): string[] {
	const n = normaliseMsisdn(entry, countryCode);
	if (n.ok) return [n.msisdn];
	const digits = entry.replace(/[\s().-]/g, '');
	return IRISH_MOBILE_WITHOUT_ZERO.test(digits) ? [IRISH_COUNTRY_CODE + digits] : [];
}

/** Normalises a list with the recipients' rules, plus the lost-leading-zero Irish form. */
export function suppressionOf(list: unknown, countryCode: string): Suppression {
	const suppression: Suppression = { numbers: new Set(), unreadable: [] };
	for (const entry of splitRecipients(list)) {
		const found = forms(entry, countryCode);
		if (found.length === 0) suppression.unreadable.push(entry);
		for (const n of found) suppression.numbers.add(n);
	}
	return suppression;
}

/**
 * Suppression lists by value: a list read once for all items (or the same text) is normalised
 * once per run, so 10,000 opted-out numbers cost O(items + numbers), not O(items × numbers).
 */
export class SuppressionCache {
	private last?: { list: unknown; countryCode: string; suppression: Suppression };

	get(list: unknown, countryCode: string): Suppression {
		const last = this.last;
		if (last && last.list === list && last.countryCode === countryCode) return last.suppression;
		const suppression = suppressionOf(list, countryCode);
		this.last = { list, countryCode, suppression };
		return suppression;
	}
}
