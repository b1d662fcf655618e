// One text per number in a legacy run: which items are not posted (duplicate, excluded) and why.
import type { INodeExecutionData } from 'n8n-workflow';

import { EXCLUDED, type Skip } from '../campaign/pipeline/sharedWithLegacySend';
import type { LegacyMessage } from './message';

/**
 * One number, one text across the items of a run, as campaign Send does it within a campaign: the
 * first item to name a number with a sender and text is posted, a later one is a `duplicate`.
 * The number is the normalised msisdn (0871234567 and +353871234567 are one). The same number
 * with another text or sender is a message of its own and is posted too: campaign Send's rule,
 * where items that differ in Sender or Text are separate campaigns that each text the number once.
 * The Notify ID does not count, as in a campaign: the text goes once, with the first item's.
 */
const messageKey = (message: LegacyMessage) =>
	JSON.stringify([message.to, message.from, message.text]);

function duplicateOf(firstIndex: number, first: LegacyMessage): Skip {
	const reference = first.notifyId ? `, with Notify ID "${first.notifyId}"` : '';
	return {
		kind: 'duplicate',
		reason: `already in this run from item ${firstIndex}${reference}; sent once, as item ${firstIndex}'s message (its output says how that went)`,
	};
}

/**
 * Which checked items are not posted (undefined: the item failed its checks), and why. An item an
 * earlier attempt of this execution posted (`postedEarlier`, the retry ledger) is reported from its
 * record as before, and claims its message first: a retry whose items now compare otherwise never
 * posts that message again for another item.
 */
export function skipsOf(
	messages: ReadonlyArray<LegacyMessage | undefined>,
	postedEarlier: (itemIndex: number, message: LegacyMessage) => boolean,
): Map<number, Skip> {
	const firstItem = new Map<string, number>();
	const claim = (message: LegacyMessage, itemIndex: number) => {
		const key = messageKey(message);
		if (!firstItem.has(key)) firstItem.set(key, itemIndex);
		return firstItem.get(key)!;
	};
	const fresh: Array<[number, LegacyMessage]> = [];
	messages.forEach((message, itemIndex) => {
		if (!message) return;
		if (postedEarlier(itemIndex, message)) claim(message, itemIndex);
		else fresh.push([itemIndex, message]);
	});
	const skips = new Map<number, Skip>();
	for (const [itemIndex, message] of fresh) {
		// Excluded, it claims nothing (as in a campaign): a later item whose own list lets it through is posted.
		if (message.excluded) skips.set(itemIndex, EXCLUDED);
		else {
			const first = claim(message, itemIndex);
			if (first !== itemIndex) skips.set(itemIndex, duplicateOf(first, messages[first]!));
		}
	}
	return skips;
}

/** A skipped item's output: nothing was posted for it, `status` and `reason` say why, as in a campaign. */
export function skippedItem(
	message: LegacyMessage,
	skip: Skip,
	itemIndex: number,
): INodeExecutionData {
	const { to, from, notifyId } = message;
	return {
		json: {
			success: false,
			status: skip.kind,
			reason: skip.reason,
			to,
			from,
			notifyId: notifyId || null,
		},
		pairedItem: { item: itemIndex },
	};
}
