// The messages of one person as the inbox's `messages` table keeps them, and what they tell: pure.

/** One row: a text that came in (`in`) or a reply that went out (`out`). */
export interface LoggedMessage {
	kind: 'in' | 'out';
	/** The person's number, in international digits. */
	phone: string;
	/** `in`: the relay's key (number + text, signed); `out`: the turn or relay it answers. */
	key: string;
	text: string;
	/** When it was logged (ISO, this n8n's clock). */
	at: string;
	/**
	 * `in`: when the relay reached n8n (the trigger's `arrivedAt`), '' when unknown. In queue mode a
	 * busy worker may log a text after a later one: a turn's texts are put in this order.
	 */
	arrivedAt: string;
	/** Unique per kind, execution and item: `<kind>:<execution id>:<item index>` (messageId). */
	id: string;
	/** `in`: the turn that took it ('' until then); `out`: the turn it answers. */
	turn: string;
}

/**
 * A row's id: the same on Retry On Fail (the retry finds its own row), different for the text that
 * came in and the reply that went out in one execution (an assistant logs both), and for each run
 * of the node (a loop, an agent calling it as a tool twice).
 */
export const messageId = (
	kind: LoggedMessage['kind'],
	run: { executionId: string; runIndex: number },
	itemIndex: number,
) => `${kind}:${run.executionId}:${run.runIndex}:${itemIndex}`;

/** A relay repeated within this time is a replay: its signature covers only the number and the text. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** A row of ours: a reply may answer nothing in particular (an empty key). */
const isMessage = (row: Record<string, unknown>): boolean =>
	(row.kind === 'in' || (row.kind === 'out' && typeof row.key === 'string')) &&
	['phone', 'at', 'id', ...(row.kind === 'in' ? ['key'] : [])].every(
		(key) => typeof row[key] === 'string' && row[key] !== '',
	);

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The rows the log gave back that are messages (an empty answer is one empty item), each id once. */
export function messagesOf(rows: ReadonlyArray<Record<string, unknown>>): LoggedMessage[] {
	const seen = new Set<string>();
	const messages: LoggedMessage[] = [];
	for (const row of rows) {
		if (!isMessage(row) || seen.has(text(row.id))) continue;
		seen.add(text(row.id));
		messages.push({
			kind: row.kind as LoggedMessage['kind'],
			phone: text(row.phone),
			key: text(row.key),
			text: text(row.text),
			at: text(row.at),
			arrivedAt: arrivalOf(row.arrivedAt, text(row.at)),
			id: text(row.id),
			turn: text(row.turn),
		});
	}
	return messages;
}

/** Log order: by time, then by id (two logged in the same millisecond). */
export const byLogOrder = (a: LoggedMessage, b: LoggedMessage): number =>
	a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** How far a text's arrival may be from when it was logged: a queue's backlog, clocks apart. */
const ARRIVAL_BEFORE_LOG_MS = 24 * 60 * 60 * 1000;
const ARRIVAL_AFTER_LOG_MS = 60 * 1000;

/**
 * The trigger's `arrivedAt` as it stamps it (ISO, UTC, ms), when it is within a day before the
 * text was logged (`at`) and not more than a minute after; else '' (an item or a row from
 * elsewhere, a clock far off), and the text takes its place by when it was logged.
 */
export function arrivalOf(value: unknown, at: string): string {
	if (typeof value !== 'string' || !ISO_UTC.test(value)) return '';
	const [arrived, logged] = [Date.parse(value), Date.parse(at)];
	if (Number.isNaN(arrived) || Number.isNaN(logged)) return '';
	const fits =
		arrived >= logged - ARRIVAL_BEFORE_LOG_MS && arrived <= logged + ARRIVAL_AFTER_LOG_MS;
	return fits ? value : '';
}

/** Arrival order (log order for a text without its arrival time): the order the person sent them. */
export const byArrival = (a: LoggedMessage, b: LoggedMessage): number => {
	const [x, y] = [a.arrivedAt || a.at, b.arrivedAt || b.at];
	return x < y ? -1 : x > y ? 1 : byLogOrder(a, b);
};

const within = (row: LoggedMessage, at: string, ms: number) =>
	Date.parse(at) - Date.parse(row.at) < ms;

/**
 * The first logging of the same relay (the same key) within the replay window, when it is not
 * this one: the person's number and text signed again, so it is a replay (or the same words sent
 * twice, which cannot be told apart).
 */
export function earlierCopy(rows: LoggedMessage[], mine: LoggedMessage): LoggedMessage | undefined {
	const first = rows
		.filter((row) => row.kind === mine.kind && row.key === mine.key)
		.filter((row) => row.id === mine.id || within(row, mine.at, REPLAY_WINDOW_MS))
		.sort(byLogOrder)[0];
	return first && first.id !== mine.id ? first : undefined;
}

/** A text that came in after this one and no turn has taken yet: the burst goes on, its run answers. */
export function laterMessage(
	rows: LoggedMessage[],
	mine: LoggedMessage,
): LoggedMessage | undefined {
	return rows.find(
		(row) =>
			row.kind === 'in' && row.turn === '' && byLogOrder(row, mine) > 0 && !earlierCopy(rows, row),
	);
}

/** The texts a turn took, in the order they reached n8n, each relay once. */
export function turnMessages(rows: LoggedMessage[], turn: string): LoggedMessage[] {
	const taken = rows.filter((row) => row.kind === 'in' && row.turn === turn);
	return taken.filter((row) => !earlierCopy(taken, row)).sort(byArrival);
}

/**
 * The replies logged for this person in the hour up to this one, this one included: those logged
 * after it (a reply racing it) count against themselves, not against it.
 */
export const repliesUpTo = (rows: LoggedMessage[], mine: LoggedMessage): LoggedMessage[] =>
	rows.filter(
		(row) => row.kind === 'out' && byLogOrder(row, mine) <= 0 && within(row, mine.at, HOUR_MS),
	);
