import { splitRecipients, suppressionForms } from '../../../domain/phoneNumbers';

/** An Exclude Numbers list, normalised: the numbers it stands for, and the entries it could not read. */
export interface Suppression {
	numbers: Set<string>;
	unreadable: string[];
}

/** Normalises a list with the recipients' rules, plus the lost-leading-zero Irish form. */
export function suppressionOf(list: unknown, countryCode: string): Suppression {
	const suppression: Suppression = { numbers: new Set(), unreadable: [] };
	for (const entry of splitRecipients(list)) {
		const found = suppressionForms(entry, countryCode);
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
