// An item's Exclude Numbers read into numbers, once per run when items share the same list.
import type { ExclusionList } from '../../../domain/exclusions';
import { readExclusions } from '../../../domain/exclusions';

/** An Exclude Numbers list, normalised: the numbers it stands for, and the entries it could not read. */
export type Suppression = ExclusionList;

/** Reads a list in any shape Exclude Numbers takes (see readExclusions), with the recipients' rules. */
export function suppressionOf(list: unknown, countryCode: string): Suppression {
	return readExclusions(list, countryCode);
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
