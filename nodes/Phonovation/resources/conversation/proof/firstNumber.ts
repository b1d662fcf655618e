// Which number a signed text first came from, as n8n's store of processed items keeps it for Deliver Reply.
import type { DeduplicationItemTypes, IExecuteFunctions } from 'n8n-workflow';

/**
 * How many relays are remembered (two entries each, the oldest dropped first): Remove Duplicates'
 * default history. An older relay's copy falls back to the logs' own rules (messages.ts, settledRelays.ts).
 */
export const RELAYS_REMEMBERED = 10_000;

/**
 * What a relay leaves in the store: its signed text's mark (replyProof.ts signedTextMark: an HMAC,
 * so the store holds no text) alone, and with the number it came from. A copy with the
 * From/Content boundary moved has the same mark and another number.
 */
export const entriesOf = (textMark: string, from: string): [string, string] => [
	`signed-text:${textMark}`,
	`signed-text:${textMark} from:${from}`,
];

/** From a check of a relay's entries: true when its signed text came before, from another number only. */
export function cameFromAnotherNumber(
	[text, textFrom]: [string, string],
	processed: DeduplicationItemTypes[],
): boolean {
	const seen = new Set(processed.map(String));
	return seen.has(text) && !seen.has(textFrom);
}

/**
 * Records the relay and says whether its signed text first came from another number: a replay with
 * the boundary moved, whatever path (an opt-out, an answer, a keyword) the original took. Kept in
 * n8n's database (so shared by queue-mode workers), per node. The number's own repeats, a replay
 * as captured and a Retry of the execution are not from another number: the logs' rules judge those.
 */
export async function firstFromAnotherNumber(
	ctx: IExecuteFunctions,
	textMark: string,
	from: string,
): Promise<boolean> {
	const entries = entriesOf(textMark, from);
	const check = async () =>
		await ctx.helpers.checkProcessedAndRecord(entries, 'node', {
			mode: 'entries',
			maxEntries: 2 * RELAYS_REMEMBERED,
		});
	let checked;
	try {
		checked = await check();
	} catch {
		// The node's first record: two runs at once may both insert it, and the second is refused.
		checked = await check();
	}
	if (!cameFromAnotherNumber(entries, checked.processed)) return false;
	// Only the first number stays on record: another copy from this number is a replay too.
	await ctx.helpers.removeProcessed([entries[1]], 'node', { mode: 'entries' });
	return true;
}
