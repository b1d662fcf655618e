// Hand-over to a person: who asked, until when the AI stays quiet, and who may still write. Pure.
import { byLogOrder, type LoggedMessage, wentFirst } from './messages';

/** How long a hand-over holds, unless staff hand back first; the log shows a day, so at most 24 h. */
export const HANDOVER_HOURS = { min: 1, max: 24, fallback: 24 } as const;

/** What a person texts to reach a person: any of these, as whole words, anywhere in their turn. */
export const DEFAULT_HANDOVER_WORDS =
	'talk to a person, speak to a person, speak with a person, talk to someone, speak to someone, speak with someone, talk to a human, speak to a human, real person, real human';

/** The `turn` of a reply staff wrote (Reply with Staff Reply on): no AI's, never refused for a hand-over. */
export const STAFF = 'staff';

/** Who handed the conversation over (or back). */
export type HandedBy = 'person' | 'agent' | 'staff';

/** A hand-over as its row keeps it (in `text`, as JSON): until when, from which longcode, by whom. */
export interface Handover {
	/** Until when (ISO); a hand-back is a hand-over until the moment it was made. */
	until: string;
	/** The longcode the person texted, so staff reply from it. */
	longcode: string;
	by: HandedBy;
	/** The turn (or relay) it was made while answering: the AI's reply to that one still goes. */
	answers: string;
}

/** A hand-over's row in the `messages` table (kind `handover`). */
export function handoverRow(
	{ phone, at, id }: { phone: string; at: string; id: string },
	handover: Handover,
): LoggedMessage {
	return {
		kind: 'handover',
		phone,
		key: `handover:${id}`,
		text: JSON.stringify(handover),
		at,
		arrivedAt: '',
		id,
		turn: handover.answers,
		seq: null,
	};
}

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HOUR_MS = 3_600_000;

/**
 * The hand-over a row holds; undefined when it is none or unreadable. The table is the user's (any
 * workflow may write a row), so a row counts only when its times are ours (ISO, UTC) and it holds
 * at most HANDOVER_HOURS from when it was logged: no row silences a number for longer.
 */
export function handoverOf(row: LoggedMessage): Handover | undefined {
	if (row.kind !== 'handover' || !ISO_UTC.test(row.at)) return undefined;
	try {
		const value = JSON.parse(row.text) as Partial<Handover>;
		if (typeof value.until !== 'string' || !ISO_UTC.test(value.until)) return undefined;
		const longest = Date.parse(row.at) + HANDOVER_HOURS.max * HOUR_MS;
		return {
			until: Date.parse(value.until) > longest ? new Date(longest).toISOString() : value.until,
			longcode: typeof value.longcode === 'string' ? value.longcode : '',
			by: value.by === 'person' || value.by === 'agent' ? value.by : 'staff',
			answers: typeof value.answers === 'string' ? value.answers : '',
		};
	} catch {
		return undefined;
	}
}

/** A row stamped more than a minute after the moment judged: no clock of ours wrote it. */
const fromTheFuture = (row: { at: string }, at: string) =>
	Date.parse(row.at) > Date.parse(at) + 60_000;

/**
 * The person's last hand-over logged before `before` (in log order; every row when not given),
 * when it still held at `at`: a later hand-back (a hand-over until its own time) ends it.
 */
export function handedOverAt(
	rows: LoggedMessage[],
	{ phone, at, before }: { phone: string; at: string; before?: LoggedMessage },
): Handover | undefined {
	let last: { row: LoggedMessage; handover: Handover } | undefined;
	for (const row of rows) {
		if (row.phone !== phone || (before && byLogOrder(row, before) >= 0)) continue;
		if (fromTheFuture(row, at)) continue;
		const handover = handoverOf(row);
		if (handover && (!last || byLogOrder(row, last.row) > 0)) last = { row, handover };
	}
	return last && Date.parse(last.handover.until) > Date.parse(at) ? last.handover : undefined;
}

/** The longcode of the person's last hand-over (or back), '' when none: staff reply from it. */
export function handoverLongcode(rows: LoggedMessage[], phone: string): string {
	const last = rows
		.filter((row) => row.phone === phone && handoverOf(row)?.longcode)
		.sort(byLogOrder)
		.at(-1);
	return last ? handoverOf(last)!.longcode : '';
}

/** When the person's conversation was last handed over or back (ISO), '' when never. */
export function lastHandoverAt(rows: LoggedMessage[], phone: string): string {
	return rows
		.filter((row) => row.phone === phone && row.kind === 'handover')
		.reduce((latest, row) => (row.at > latest ? row.at : latest), '');
}

/**
 * Whether an AI's reply (not staff's) may go while this hand-over holds: only the reply to the
 * turn the hand-over was made in (the agent's "a colleague will text you").
 */
const refusedBy = (handover: Handover | undefined, reply: LoggedMessage) =>
	reply.turn !== STAFF &&
	handover !== undefined &&
	Date.parse(handover.until) > Date.parse(reply.at) &&
	(handover.answers === '' || handover.answers !== reply.key);

/** Why an AI's reply logged as `reply` may not go for a hand-over; null when it may. */
export function handoverRefusal(rows: LoggedMessage[], reply: LoggedMessage): string | null {
	const handover = handedOverAt(rows, { phone: reply.phone, at: reply.at, before: reply });
	return refusedBy(handover, reply)
		? `the conversation is handed over to a person until ${handover!.until} (or until staff hand it back): the assistant does not reply`
		: null;
}

/**
 * Which of these rows' replies went out: the first for what they answer (a reply that lost a race
 * was never sent) and not an AI's reply refused while the conversation was handed over. One walk
 * in log order, for a filter over many rows.
 */
export function sentReplies(rows: LoggedMessage[]): (reply: LoggedMessage) => boolean {
	const first = wentFirst(rows);
	const refused = new Set<string>();
	const current = new Map<string, Handover & { at: string }>();
	for (const row of [...rows].sort(byLogOrder)) {
		const handover = handoverOf(row);
		if (handover) current.set(row.phone, { ...handover, at: row.at });
		else if (row.kind === 'out') {
			const handover = current.get(row.phone);
			const holds = handover && !fromTheFuture(handover, row.at) ? handover : undefined;
			if (refusedBy(holds, row)) refused.add(row.id);
		}
	}
	return (reply) => first(reply) && !refused.has(reply.id);
}

const folded = (text: string) =>
	` ${text
		.normalize('NFKC')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim()} `;

/** Whether a text asks for a person: it holds one of the words (comma-separated) as whole words, any case. */
export function asksForPerson(list: string): (text: string) => boolean {
	const phrases = list
		.split(',')
		.map(folded)
		.filter((phrase) => phrase.trim() !== '');
	return (text) => {
		const words = folded(text);
		return phrases.some((phrase) => words.includes(phrase));
	};
}
