// Where a burst ends besides a quiet time: Max Wait, Max Texts and Flush Words. Pure.
import { wholeReply } from '../../../../shared/optOutWords';

/** Collect Burst's bounds; UNBOUNDED keeps only the quiet time. */
export interface BurstBounds {
	/** From a burst's first text (when it reached n8n): a text this long after it, or later, starts the next. */
	maxWaitMs: number;
	/** The most texts in a burst: the one that reaches it ends it, at once. */
	maxTexts: number;
	/** Whether a text is a flush word: it ends its burst at once. */
	flushes: (text: string) => boolean;
}

export const UNBOUNDED: BurstBounds = {
	maxWaitMs: Number.POSITIVE_INFINITY,
	maxTexts: Number.POSITIVE_INFINITY,
	flushes: () => false,
};

/**
 * The flush words (comma-separated), each read as a stop word is: the whole text, any case,
 * punctuation and emoji around it ignored.
 */
export function flushWords(list: string): (text: string) => boolean {
	const words = new Set(
		list
			.split(',')
			.map((word) => wholeReply(word))
			.filter((word) => word !== ''),
	);
	return words.size === 0 ? () => false : (text) => words.has(wholeReply(text));
}

/** A text's place among the person's bursts. */
export interface BurstPlace {
	/** Its burst, numbered in the order the person sent them. */
	burst: number;
	/** It ends its burst by a bound: a flush word, the Max Texts-th text, or the next text came after Max Wait. */
	ends: boolean;
	/** It ends its burst as soon as it is logged (a flush word, Max Texts): no quiet time to wait. */
	endsAtOnce: boolean;
}

/**
 * A text as the cut needs it: when it reached n8n (ms) and what it says; and, for stampedWithin,
 * the provider's time stamp of it (ms, whole seconds, its own clock) when known.
 */
export interface SentText {
	id: string;
	text: string;
	sentAt: number;
	providerAt?: number;
}

/** How far the provider's stamps may tell otherwise than the arrivals: past it, a stamp is not believed. */
const MAX_RELAY_LAG_MS = 2 * 60 * 1000;
/** The provider stamps in whole seconds. */
const STAMP_STEP_MS = 1000;

/**
 * Whether the provider's stamps prove two texts of a person were sent less than `ms` apart. A busy
 * n8n takes a relay late but never changes its stamp, so a burst's texts stay as close as the
 * person sent them. Stamps are whole seconds, so texts stamped d seconds apart were sent less than
 * d + 1 seconds apart: only that counts (texts sent 1.2 s apart are proven within 5 s, not always
 * within 2 s). The stamp is not signed: it only ever brings texts together (fewer turns, never
 * another paid reply), and not when it tells otherwise than the arrivals by more than a relay is
 * ever held.
 */
export function stampedWithin(a: SentText, b: SentText, ms: number): boolean {
	if (a.providerAt === undefined || b.providerAt === undefined) return false;
	const stamped = b.providerAt - a.providerAt;
	if (!Number.isFinite(stamped)) return false;
	if (Math.abs(stamped - (b.sentAt - a.sentAt)) > MAX_RELAY_LAG_MS) return false;
	return Math.abs(stamped) + STAMP_STEP_MS <= ms;
}

/**
 * The person's texts (replays left out), in the order they reached n8n, cut into bursts: a text
 * starts a new burst when it came more than the quiet time after the one before, Max Wait or
 * more after its burst's first text, after Max Texts texts, or after a flush word. From the texts
 * alone, never from which were answered, so every run that reads the same texts cuts them alike.
 */
export function burstPlaces(
	texts: SentText[],
	quietMs: number,
	bounds: BurstBounds,
): Map<string, BurstPlace> {
	const places = new Map<string, BurstPlace>();
	let burst = -1;
	let first = Number.NaN;
	let count = 0;
	let previous: { row: SentText; place: BurstPlace } | undefined;
	for (const row of texts) {
		const at = row.sentAt;
		const closedByBound = previous?.place.endsAtOnce || at - first >= bounds.maxWaitMs;
		if (!previous || closedByBound || at - previous.row.sentAt > quietMs) {
			if (previous && closedByBound) previous.place.ends = true;
			burst++;
			first = at;
			count = 0;
		}
		count++;
		const endsAtOnce = count >= bounds.maxTexts || bounds.flushes(row.text);
		const place = { burst, ends: endsAtOnce, endsAtOnce };
		places.set(row.id, place);
		previous = { row, place };
	}
	return places;
}
