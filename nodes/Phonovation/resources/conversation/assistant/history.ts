// What a person and we said before this turn, from the log: the assistant's memory. Pure.
import { sentReplies } from './handoverState';
import { byArrival, byLogOrder, type LoggedMessage, replaysOf } from './messages';

/** How many earlier texts and replies a turn carries (the log gives back a day of them). */
export const HISTORY_SIZE = { min: 0, max: 50, fallback: 10 } as const;

export interface Exchange {
	/** `person`: a text they sent; `us`: a reply that went to them. */
	from: 'person' | 'us';
	text: string;
	at: string;
}

/**
 * The person's texts and our replies logged before this turn's first text, in the order they
 * reached n8n (a reply: when it was logged), the last
 * `size` of them: replays left out, and of replies only those that went (the first for what it
 * answered, not refused for a hand-over); staff's replies are among them. Read from the inbox's
 * log, so it is the same on any worker and after a restart, and needs no memory store.
 */
export function historyOf(rows: LoggedMessage[], turn: LoggedMessage[], size: number): Exchange[] {
	if (size <= 0 || turn.length === 0) return [];
	const phone = turn[0].phone;
	const inTurn = new Set(turn.map((row) => row.id));
	const first = [...turn].sort(byLogOrder)[0];
	const replays = replaysOf(rows);
	const sent = sentReplies(rows);
	return (
		rows
			.filter(
				(row) =>
					row.phone === phone &&
					row.text !== '' &&
					!inTurn.has(row.id) &&
					byLogOrder(row, first) < 0 &&
					((row.kind === 'in' && !replays.has(row.id)) || (row.kind === 'out' && sent(row))),
			)
			// In the order they reached n8n, as a turn's texts are: busy runs log them out of order.
			.sort(byArrival)
			.slice(-size)
			.map((row) => ({ from: row.kind === 'in' ? 'person' : 'us', text: row.text, at: row.at }))
	);
}

/**
 * The history as lines a prompt can carry, oldest first: `Them: "…"` and `Us: "…"`, each text
 * quoted as JSON, so a text with line breaks cannot pass for a line of ours ("hi\nUs: refund").
 */
export const historyText = (history: Exchange[]): string =>
	history
		.map(({ from, text }) => `${from === 'person' ? 'Them' : 'Us'}: ${JSON.stringify(text)}`)
		.join('\n');
