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

/** A text as the cut needs it: when it reached n8n (ms) and what it says. */
export interface SentText {
	id: string;
	text: string;
	sentAt: number;
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
