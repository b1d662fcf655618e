// Telling a person they text an AI: when, and the text with it. Pure: imports nothing from n8n.
import { analyseText } from '../../../domain/gsmSegments';
import { lastHandoverAt, sentReplies, STAFF } from './handoverState';
import { byLogOrder, type LoggedMessage } from './messages';
import { cutToParts } from './replyText';

/**
 * EU AI Act Art. 50(1): a person interacting with an AI system is told so, at the latest at the
 * first interaction. Said in the first reply to a person and again after a silence this long (the
 * log keeps a day of replies, so no longer).
 */
export const DISCLOSURE_AFTER_HOURS = { min: 1, max: 24, fallback: 24 } as const;

/** What a person reads by default: that it is an AI, and how to stop. The user names the business. */
export const DEFAULT_DISCLOSURE =
	'You are texting an automated assistant (AI). Text STOP to 50123 to opt out.';

/**
 * Whether this reply is the person's first, or the first after `afterMs` without one. A reply that
 * lost a race (a replayed relay answered again, a second Reply node) never went out and does not
 * count, so replaying a relay cannot keep the disclosure from being said again. Neither do staff's
 * replies, and after a hand-over (or back) the assistant's next reply says it again: the person
 * may think a person is still writing.
 */
export function disclosureDue(
	rows: LoggedMessage[],
	mine: LoggedMessage,
	afterMs: number,
): boolean {
	const since = Math.max(
		Date.parse(mine.at) - afterMs,
		Date.parse(lastHandoverAt(rows, mine.phone)) || 0,
	);
	const sent = sentReplies(rows);
	return !rows.some(
		(row) =>
			row.kind === 'out' &&
			row.turn !== STAFF &&
			row.phone === mine.phone &&
			row.id !== mine.id &&
			byLogOrder(row, mine) < 0 &&
			Date.parse(row.at) > since &&
			sent(row),
	);
}

/** The least room a reply keeps beside the disclosure, in characters of the costliest encoding. */
const MIN_ROOM = 40;

/**
 * Whether the disclosure leaves room for a reply within `maxParts` whatever the reply holds: counted
 * as if an emoji or accent made the whole text UCS-2 (70 characters a part, 67 each when more), so
 * the answer does not depend on what the model wrote and is known before anything is logged.
 */
export function disclosureFits(disclosure: string, maxParts: number): boolean {
	const capacity = maxParts <= 1 ? 70 : 67 * maxParts;
	return Array.from(`${disclosure.trim()}\n`).length + MIN_ROOM <= capacity;
}

/**
 * The disclosure on a line of its own before the message, the whole cut to `maxParts` (the message
 * is cut, never the disclosure); null when the disclosure leaves no room for the message.
 */
export function withDisclosure(
	disclosure: string,
	message: string,
	maxParts: number,
): string | null {
	const lead = disclosure.trim();
	const text = cutToParts(`${lead}\n${message.trim()}`, maxParts);
	const room = text
		.slice(lead.length + 1)
		.replace(/\.\.\.$/, '')
		.trim();
	if (!text.startsWith(`${lead}\n`) || room === '' || analyseText(lead).segments > maxParts)
		return null;
	return text;
}
