// Legacy Send's Exclude Numbers: its field, read per item as campaign Send reads it, and its error.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	listedUnreadable,
	sameForEveryItem,
	type Suppression,
	SuppressionCache,
} from '../campaign/pipeline/sharedWithLegacySend';
import { excludeNumbersField } from '../../numberFields';

const PATH = 'options.excludeNumbers';

/** The option's field: the same name and forms as campaign Send's, read by the same code. */
export const excludeNumbersOption = excludeNumbersField(
	'An excluded number is not sent and its item says so; an entry it cannot read stops the run before anything is sent.',
);

/**
 * Each item's Exclude Numbers as campaign Send reads it: an expression that reads nothing of the
 * item (`{{ $('Opted-Out').all() }}`) is evaluated once, and a list is normalised once per value and
 * country code (domain/exclusions.ts through the campaign's SuppressionCache), so 1,000 items
 * against 10,000 opted-out numbers do not read the list 1,000 times.
 */
export class ExcludeNumbers {
	private readonly suppressions = new SuppressionCache();

	private readonly sameForEveryItem: boolean;

	private constant?: { value: unknown };

	constructor(private readonly ctx: IExecuteFunctions) {
		const options = ctx.getNode().parameters.options as IDataObject | undefined;
		this.sameForEveryItem = sameForEveryItem(options?.excludeNumbers);
	}

	/** The numbers item `itemIndex` must not text, read with its Default Country Code. */
	forItem(itemIndex: number, countryCode: string): Suppression {
		return this.suppressions.get(this.valueOf(itemIndex), countryCode);
	}

	private valueOf(itemIndex: number): unknown {
		if (this.constant) return this.constant.value;
		const value = this.ctx.getNodeParameter(PATH, itemIndex, '');
		if (this.sameForEveryItem) this.constant = { value };
		return value;
	}
}

/**
 * What is wrong with a list holding entries it cannot read, in campaign Send's words; undefined when
 * there are none. Always an error here (the legacy send has no Unreadable Exclusions = Warn): an
 * entry that excludes no one may be an opted-out number.
 */
export function unreadableExclusions(suppression: Suppression): string | undefined {
	const n = suppression.unreadable.length;
	if (n === 0) return undefined;
	const entries = n === 1 ? '1 entry' : `${n} entries`;
	const numbers = n === 1 ? 'a phone number' : 'phone numbers';
	return `Exclude Numbers: ${entries} cannot be read as ${numbers} and would exclude no one — ${listedUnreadable(suppression)}. Fix ${n === 1 ? 'it' : 'them'}`;
}
