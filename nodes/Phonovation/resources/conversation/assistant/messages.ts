// The messages of one person as the inbox's `messages` table keeps them, and what they tell: pure.
import {
	type BurstBounds,
	type BurstPlace,
	burstPlaces,
	type SentText,
	stampedWithin,
	UNBOUNDED,
} from './burstBounds';

/**
 * One row: a text that came in (`in`), a reply that went out (`out`), or a relay the inbox saw
 * (`seen`, Deliver Reply logs every one, whatever path it takes: only which number a signed text
 * came from first, never a turn, a repeat or a reply).
 */
export interface LoggedMessage {
	/** Also `handover`: the conversation handed to a person or back (handover.ts). */
	kind: 'in' | 'out' | 'seen' | 'handover';
	/** The person's number, in international digits. */
	phone: string;
	/**
	 * `in`: the relay's key, a hash of what the provider signs (From and Content as one string, so a
	 * copy with the boundary between them moved has the same key); `out`: the turn or relay it answers.
	 */
	key: string;
	text: string;
	/** When it was logged (ISO, this n8n's clock). */
	at: string;
	/**
	 * `in`: when the relay reached n8n (the trigger's `arrivedAt`), '' when unknown. In queue mode a
	 * busy worker may log a text after a later one: a turn's texts are put in this order.
	 */
	arrivedAt: string;
	/**
	 * `in`: the provider's time stamp of the text (SMS-TimeStamp: ISO, whole seconds, the provider's
	 * clock), '' or absent when unknown. A backlog delays a relay, never its stamp, so a text n8n
	 * took late may still join its answered burst by it (stampedWithin). Kept in the `arrivedAt`
	 * column after the arrival and a space: the column every inbox already has (arrivalColumn).
	 */
	providerAt?: string;
	/** Unique per kind, execution, node and item (messageId). */
	id: string;
	/** `in`: the turn that took it ('' until then); `out`: the turn it answers. */
	turn: string;
	/**
	 * The Data Table's own row number: the order rows were really written in, whatever the clocks of
	 * the runs that wrote them said; null from an inbox imported before it gave it back.
	 */
	seq: number | null;
}

/** A relay kept as seen: its key and number only, no text. */
export const seenRow = (relay: {
	phone: string;
	key: string;
	at: string;
	id: string;
}): LoggedMessage => ({
	kind: 'seen',
	text: '',
	arrivedAt: '',
	turn: '',
	seq: null,
	...relay,
});

/**
 * A row's id: the same on Retry On Fail (the retry finds its own row), different for the text that
 * came in and the reply that went out in one execution (an assistant logs both), for each run of
 * the node (a loop, an agent calling it as a tool twice) and, for a reply, for each node (a Reply
 * as the agent's tool and a fallback Reply answering the same turn are two replies).
 */
export const messageId = (
	kind: LoggedMessage['kind'],
	run: { executionId: string; runIndex: number; nodeId?: string },
	itemIndex: number,
) =>
	run.nodeId
		? `${kind}:${run.executionId}:${run.nodeId}:${run.runIndex}:${itemIndex}`
		: `${kind}:${run.executionId}:${run.runIndex}:${itemIndex}`;

/**
 * When the same signed text from the same number is a genuine repeat (a second "ok" to another
 * question) rather than a replay: a relay's signature covers only the number and the text, so a
 * copy posted again with a fresh time stamp cannot be told from the person typing it again. A
 * repeat makes a turn only when it comes at least `minGapMs` after the last copy, after a reply to
 * the person was logged since that copy, and while at most `perWindow` copies (this one included)
 * came within `windowMs`. So copies of a captured relay from one number make at most `perWindow`
 * turns (and paid replies) in any `windowMs`, none within the minute of another copy and none
 * unless a reply was logged since (the reply to an earlier copy counts: this paces, it does not stop).
 */
export const REPEAT = { windowMs: 24 * 60 * 60 * 1000, minGapMs: 60 * 1000, perWindow: 3 } as const;
const HOUR_MS = 60 * 60 * 1000;

/** A row of ours: a reply may answer nothing in particular (an empty key). */
const isMessage = (row: Record<string, unknown>): boolean =>
	(row.kind === 'in' ||
		row.kind === 'seen' ||
		row.kind === 'handover' ||
		(row.kind === 'out' && typeof row.key === 'string')) &&
	['phone', 'at', 'id', ...(row.kind === 'out' ? [] : ['key'])].every(
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
		const [arrival = '', stamp = ''] = text(row.arrivedAt).split(' ');
		const arrivedAt = arrivalOf(arrival, text(row.at));
		messages.push({
			kind: row.kind as LoggedMessage['kind'],
			phone: text(row.phone),
			key: text(row.key),
			text: text(row.text),
			at: text(row.at),
			arrivedAt,
			providerAt: arrivedAt === '' ? '' : providerStampOf(stamp),
			id: text(row.id),
			turn: text(row.turn),
			seq: typeof row.seq === 'number' && Number.isSafeInteger(row.seq) ? row.seq : null,
		});
	}
	return messages;
}

/**
 * By the time each run stamped its row (`at`), then id: the order a claim takes texts in (`at` up
 * to `upTo`), so a burst's "is there a later text?" must ask it in this order too. In queue mode
 * a row stamped later can be written first: asked by row number, the run of the text stamped
 * earlier would claim without the other, and the other's run would wait for it, unanswered.
 */
export const byLogTime = (a: LoggedMessage, b: LoggedMessage): number =>
	a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * Log order: the order the Data Table wrote the rows in (its row numbers), so every run that reads
 * them agrees on which came first whatever its own clock said; by time, then id, from an inbox that
 * does not give row numbers back.
 */
export const byLogOrder = (a: LoggedMessage, b: LoggedMessage): number => {
	if (a.seq !== null && b.seq !== null && a.seq !== b.seq) return a.seq - b.seq;
	return byLogTime(a, b);
};

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

/** The provider's stamp as the trigger gives it (ISO, UTC, ms), or '' (none, or from elsewhere). */
export const providerStampOf = (value: unknown): string =>
	typeof value === 'string' && ISO_UTC.test(value) && !Number.isNaN(Date.parse(value)) ? value : '';

/**
 * What the `arrivedAt` column keeps of a text: when it reached n8n and, after a space, the
 * provider's stamp of it when known (an inbox reading it before it kept stamps sees an unknown arrival).
 */
export const arrivalColumn = (message: LoggedMessage): string =>
	message.arrivedAt !== '' && message.providerAt
		? `${message.arrivedAt} ${message.providerAt}`
		: message.arrivedAt;

/** A text as stampedWithin reads it: when it reached n8n (logged when unknown) and the provider's stamp. */
const asSent = (row: LoggedMessage): SentText => ({
	id: row.id,
	text: row.text,
	sentAt: sentAt(row),
	...(row.providerAt ? { providerAt: Date.parse(row.providerAt) } : {}),
});

/** Arrival order (log order for a text without its arrival time): the order the person sent them. */
export const byArrival = (a: LoggedMessage, b: LoggedMessage): number => {
	const [x, y] = [a.arrivedAt || a.at, b.arrivedAt || b.at];
	return x < y ? -1 : x > y ? 1 : byLogOrder(a, b);
};

const within = (row: LoggedMessage, at: string, ms: number) =>
	Date.parse(at) - Date.parse(row.at) < ms;
const sentAt = (row: LoggedMessage) => Date.parse(row.arrivedAt || row.at);

/**
 * Each inbound text that is a replay, by its id, with the earlier copy that makes it one; a genuine
 * text has none. The same signed text logged first (as a text or a relay seen) for **another**
 * number is always a replay (the From/Content boundary moved: the signature cannot tell), however
 * old (Find Copies gives back the first row ever logged with a key); a moved copy logged after the
 * person's own text does not silence their repeats. For the same number, see REPEAT. A row is
 * judged from the rows logged before it only, so every run that reads the log judges it alike;
 * one walk in log order judges them all.
 */
export function replaysOf(rows: LoggedMessage[]): Map<string, LoggedMessage> {
	const replays = new Map<string, LoggedMessage>();
	const firstOfKey = new Map<string, LoggedMessage>();
	/** Per key and number: the texts logged so far, with their place in log order. */
	const copiesOf = new Map<string, Array<{ row: LoggedMessage; place: number }>>();
	/** Per number: the place of the last reply logged so far. */
	const lastReply = new Map<string, number>();
	[...rows].sort(byLogOrder).forEach((row, place) => {
		if (row.kind === 'out') {
			lastReply.set(row.phone, place);
			return;
		}
		if (row.kind === 'handover') return;
		const first = firstOfKey.get(row.key);
		if (!first) firstOfKey.set(row.key, row);
		if (row.kind === 'seen') return;
		const own = `${row.key} ${row.phone}`;
		const earlier = copiesOf.get(own) ?? [];
		copiesOf.set(own, [...earlier, { row, place }]);
		if (first && first.phone !== row.phone) {
			replays.set(row.id, first);
			return;
		}
		const copies = earlier.filter((copy) => within(copy.row, row.at, REPEAT.windowMs));
		const last = copies.at(-1);
		if (!last) return;
		const writtenSince = (lastReply.get(row.phone) ?? -1) > last.place;
		const tooSoon = sentAt(row) - sentAt(last.row) < REPEAT.minGapMs;
		if (tooSoon || !writtenSince || copies.length + 1 > REPEAT.perWindow)
			replays.set(row.id, last.row);
	});
	return replays;
}

/**
 * The first row logged with a signed text (its key), as any text, reply target or relay seen, in
 * the order the log wrote them; undefined when the log has none.
 */
export function firstOfKey(rows: LoggedMessage[], key: string): LoggedMessage | undefined {
	const ofKey = rows.filter((row) => (row.kind === 'in' || row.kind === 'seen') && row.key === key);
	return ofKey.length ? [...ofKey].sort(byLogOrder)[0] : undefined;
}

/** The number a signed text (its key) was logged for first; undefined when the log has none. */
export const firstNumberOf = (rows: LoggedMessage[], key: string): string | undefined =>
	firstOfKey(rows, key)?.phone;

/** The earlier copy that makes this inbound text a replay (replaysOf), or undefined. */
export const replayOf = (rows: LoggedMessage[], mine: LoggedMessage): LoggedMessage | undefined =>
	replaysOf(rows.some((row) => row.id === mine.id) ? rows : [...rows, mine]).get(mine.id);

/** A text of this person after this one that no turn has taken yet: the burst goes on, its run answers. */
export function laterMessage(
	rows: LoggedMessage[],
	mine: LoggedMessage,
	replays = replaysOf(rows),
): LoggedMessage | undefined {
	return rows.find(
		(row) =>
			row.kind === 'in' &&
			row.phone === mine.phone &&
			row.turn === '' &&
			byLogTime(row, mine) > 0 &&
			!replays.has(row.id),
	);
}

type Joins = (text: LoggedMessage, member: LoggedMessage, root: LoggedMessage) => boolean;

/**
 * Each claimable text with the answered text whose burst it joined: first those next to an answered
 * text, then, one by one, those next to a text that joined (each pair looked at once).
 */
function burstsJoined(
	claimable: LoggedMessage[],
	answered: LoggedMessage[],
	joins: Joins,
): Map<string, LoggedMessage> {
	const burstOf = new Map<string, LoggedMessage>();
	const joined: LoggedMessage[] = [];
	const join = (text: LoggedMessage, root: LoggedMessage) => {
		burstOf.set(text.id, root);
		joined.push(text);
	};
	for (const text of claimable) {
		const root = answered.find((row) => joins(text, row, row));
		if (root) join(text, root);
	}
	for (let next = 0; next < joined.length; next++) {
		const member = joined[next];
		const root = burstOf.get(member.id)!;
		for (const text of claimable)
			if (!burstOf.has(text.id) && joins(text, member, root)) join(text, root);
	}
	return burstOf;
}

/**
 * A text reached n8n at least this long before an answered turn's run read the log, and was not
 * in it: held back by a backlog (an unloaded n8n hands a text over well within it).
 */
const HELD_BACK_MS = 1_000;

/**
 * Per answered turn, once (a person may have thousands of rows): its claiming text, whether it
 * ended its burst at once (a flush word, Max Texts: it claimed when logged, not a quiet time
 * later), and when its run read the log, at the earliest.
 */
function claimsOf(
	texts: LoggedMessage[],
	answered: LoggedMessage[],
	{ quietMs, bounds }: { quietMs: number; bounds: BurstBounds },
) {
	const claims = new Map<string, { claimer?: LoggedMessage; atOnce: boolean; read: number }>();
	return (turn: string) => {
		let claim = claims.get(turn);
		if (claim === undefined) {
			const claimer = texts.find((row) => `turn:${row.id}` === turn);
			const taken = answered.filter((row) => row.turn === turn);
			const atOnce =
				claimer !== undefined && (bounds.flushes(claimer.text) || taken.length >= bounds.maxTexts);
			const logged = (claimer ? [claimer] : taken).map((row) => Date.parse(row.at));
			claim = { claimer, atOnce, read: Math.max(...logged) + (atOnce ? 0 : quietMs) };
			claims.set(turn, claim);
		}
		return claim;
	};
}

const unstamped = (row: LoggedMessage): LoggedMessage => ({ ...row, providerAt: '' });

/**
 * The texts of the person whose signed text (key) this number sent before: a genuine repeat ("ok"
 * again) or a captured relay posted again after a reply. Their stamps are not believed: whoever
 * posts a captured relay again sets its stamp, and a moved one would join it, and the texts after
 * it, to an answered burst, leaving the person's next text unanswered.
 */
function repeatsOf(texts: LoggedMessage[]): Set<string> {
	const seen = new Set<string>();
	const repeats = new Set<string>();
	for (const row of [...texts].sort(byLogOrder)) {
		if (seen.has(row.key)) repeats.add(row.id);
		seen.add(row.key);
	}
	return repeats;
}

/**
 * Whether two texts are of one burst by the provider's stamps: they prove the person sent them
 * within the quiet time (a backlog stretches arrivals, not stamps), and no bound (Max Wait, Max
 * Texts, a flush word) ended a burst between the ones the arrivals put them in. Stamps never move
 * the cut itself, so the bounds count as they did without them.
 */
function joinedByStamps(
	places: Map<string, BurstPlace>,
	quietMs: number,
	repeats: ReadonlySet<string>,
) {
	// How many bursts a bound ended before each burst: one between two bursts is a difference.
	const last = [...places.values()].reduce((most, p) => Math.max(most, p.burst), -1);
	const endedBefore = Array.from({ length: last + 2 }, () => 0);
	for (const place of places.values()) if (place.ends) endedBefore[place.burst + 1]++;
	for (let burst = 1; burst < endedBefore.length; burst++)
		endedBefore[burst] += endedBefore[burst - 1];
	/** Each row as stampedWithin reads it, made once: a person may have thousands. */
	const sent = new Map<LoggedMessage, SentText>();
	const sentOf = (row: LoggedMessage) =>
		sent.get(row) ?? sent.set(row, asSent(repeats.has(row.id) ? unstamped(row) : row)).get(row)!;
	return (text: LoggedMessage, member: LoggedMessage): boolean => {
		if (!stampedWithin(sentOf(member), sentOf(text), quietMs)) return false;
		const [a, b] = [places.get(text.id)?.burst, places.get(member.id)?.burst];
		if (a === undefined || b === undefined) return false;
		return endedBefore[Math.max(a, b)] === endedBefore[Math.min(a, b)];
	};
}

/**
 * A text of this person already in another turn whose burst holds every text this run would claim
 * (this one and the untaken ones logged before it), by when they reached n8n. A busy n8n hands a
 * burst's texts over late and out of step (in queue mode under a storm relays alone waited 40 s,
 * and texts sent 1.2 s apart reached n8n 2–3 s apart), so its turn went out without them; another
 * turn would be a second paid reply to one burst. A claimable text joins a burst when it reached
 * n8n within the quiet time before one of its texts, or after one: within the quiet time when it
 * was held back (it reached n8n HELD_BACK_MS or more before that turn's run read the log), else
 * within half of it (a text handed over in time is seen by that run when sent within half the
 * quiet time; one that came later is the person's next message, theirs to be answered), or when
 * the provider's stamps prove it was sent within the quiet time of one and no bound ended a burst
 * between them (stampedWithin: a backlog stretches arrivals, not stamps). Claimable texts chain,
 * one that joined counting as the burst's. Only texts whose arrival is known are judged so.
 */
export function burstAnswered(
	rows: LoggedMessage[],
	mine: LoggedMessage,
	quietMs: number,
	{
		replays = replaysOf(rows),
		bounds = UNBOUNDED,
		places = placesOf(rows, mine, { quietMs, bounds }, replays),
	}: {
		replays?: Map<string, LoggedMessage>;
		bounds?: BurstBounds;
		places?: Map<string, BurstPlace>;
	} = {},
): LoggedMessage | undefined {
	const texts = rows.filter(
		(row) =>
			row.kind === 'in' && row.phone === mine.phone && row.id !== mine.id && !replays.has(row.id),
	);
	const answered = texts.filter(
		(row) => row.turn !== '' && row.turn !== `turn:${mine.id}` && row.arrivedAt !== '',
	);
	const claimable = [mine, ...texts.filter((row) => row.turn === '' && byLogTime(row, mine) < 0)];
	if (answered.length === 0 || claimable.some((row) => row.arrivedAt === '')) return undefined;
	const claimOf = claimsOf(texts, answered, { quietMs, bounds });
	const stampsJoin = joinedByStamps(places, quietMs, repeatsOf([mine, ...texts]));
	/** Whether `text` joins the burst of `member`, a text of the burst answered by `root`'s turn. */
	const joins: Joins = (text, member, root) => {
		// The cheap tests first: most pairs of a long history are neither of one burst nor stamped close.
		const stamped = stampsJoin(text, member);
		if (!stamped && places.get(text.id)?.burst !== places.get(member.id)?.burst) return false;
		const claim = claimOf(root.turn);
		// After a text that put its turn out at once: the next burst, whatever a late text shifts.
		if (claim.atOnce && claim.claimer && sentAt(text) > sentAt(claim.claimer)) return false;
		if (stamped) return true;
		const after = sentAt(text) - sentAt(member);
		if (after < 0) return -after <= quietMs;
		const heldBack = sentAt(text) <= claim.read - HELD_BACK_MS;
		return after <= (heldBack ? quietMs : quietMs / 2);
	};
	const burstOf = burstsJoined(claimable, answered, joins);
	return burstOf.size === claimable.length ? burstOf.get(mine.id) : undefined;
}

/** What a run does with its text once the quiet time has passed, read from the person's rows. */
export type Settling =
	| { replayOf: LoggedMessage }
	/** A Retry after this run's claim went through: the turn it owed. */
	| { owed: true }
	/** No turn: a later text puts the burst's turn out, or the burst was answered already. */
	| { merged: 'later' | 'answered' }
	/** Take every untaken text of the person logged up to this one into this run's turn. */
	| { claim: true };

/** The person's texts (replays left out) cut into bursts by the quiet time and the bounds. */
export function placesOf(
	rows: LoggedMessage[],
	mine: LoggedMessage,
	{ quietMs, bounds }: { quietMs: number; bounds: BurstBounds },
	replays = replaysOf(rows),
): Map<string, BurstPlace> {
	const texts = rows
		.filter((row) => row.kind === 'in' && row.phone === mine.phone && !replays.has(row.id))
		.sort(byArrival)
		.map((row) => ({ id: row.id, text: row.text, sentAt: sentAt(row) }));
	return burstPlaces(texts, quietMs, bounds);
}

/**
 * What a run does with its text, read from the person's rows once it has waited: the quiet time,
 * or nothing when its text ends its burst at once (a flush word, Max Texts). A text that ends its
 * burst by a bound claims though later texts came: they are the next burst.
 */
export function settling(
	rows: LoggedMessage[],
	mine: LoggedMessage,
	quietMs: number,
	bounds: BurstBounds = UNBOUNDED,
): Settling {
	// Seen again once every copy is logged: of two copies of one relay logged at once, only the first goes on.
	// The rows' replays, judged once for every step below.
	const replays = replaysOf(rows);
	const copy = rows.some((row) => row.id === mine.id) ? replays.get(mine.id) : replayOf(rows, mine);
	if (copy) return { replayOf: copy };
	if (rows.some((row) => row.id === mine.id && row.turn === `turn:${mine.id}`))
		return { owed: true };
	const places = placesOf(rows, mine, { quietMs, bounds }, replays);
	if (!places.get(mine.id)?.ends && laterMessage(rows, mine, replays)) return { merged: 'later' };
	if (burstAnswered(rows, mine, quietMs, { replays, bounds, places }))
		return { merged: 'answered' };
	return { claim: true };
}

/**
 * The texts a turn took, in the order they reached n8n, replays left out (judged against every row
 * in `rows`): a replay a claim swept up never speaks in a turn.
 */
export function turnMessages(rows: LoggedMessage[], turn: string): LoggedMessage[] {
	const replays = replaysOf(rows);
	return rows
		.filter((row) => row.kind === 'in' && row.turn === turn && !replays.has(row.id))
		.sort(byArrival);
}

/** Two reads of the log as one, each row once; a row in `newer` wins (a claim changed its turn). */
export function mergedRows(newer: LoggedMessage[], older: LoggedMessage[]): LoggedMessage[] {
	const ids = new Set(newer.map((row) => row.id));
	return [...newer, ...older.filter((row) => !ids.has(row.id))];
}

/** The first reply logged (in the order the log wrote them) for each thing answered. */
function firstAnswers(rows: LoggedMessage[]): Map<string, LoggedMessage> {
	const firsts = new Map<string, LoggedMessage>();
	for (const row of rows)
		if (row.kind === 'out' && row.key !== '') {
			const first = firsts.get(row.key);
			if (!first || byLogOrder(row, first) < 0) firsts.set(row.key, row);
		}
	return firsts;
}

/**
 * The reply logged first (in the order the log wrote them) for what this one answers, when it is not
 * this one: of racing runs or nodes answering one turn or relay, only the first goes out.
 */
export function earlierAnswer(
	rows: LoggedMessage[],
	mine: LoggedMessage,
): LoggedMessage | undefined {
	if (mine.key === '') return undefined;
	const first = firstAnswers(rows).get(mine.key);
	return first && first.id !== mine.id ? first : undefined;
}

/**
 * Which of these rows' replies went first for what they answer (a reply that lost a race was never
 * sent): the first answers found once, for a filter over many rows.
 */
export function wentFirst(rows: LoggedMessage[]): (reply: LoggedMessage) => boolean {
	const firsts = firstAnswers(rows);
	return (reply) => reply.key === '' || firsts.get(reply.key)?.id === reply.id;
}

/**
 * The replies that count against this person's hourly limit, up to and including this one: each
 * the first for what it answers (a reply that lost a race was never sent) and logged before it.
 */
export function repliesUpTo(
	rows: LoggedMessage[],
	mine: LoggedMessage,
	first = wentFirst(rows),
): LoggedMessage[] {
	return rows.filter(
		(row) =>
			row.kind === 'out' &&
			row.phone === mine.phone &&
			byLogOrder(row, mine) <= 0 &&
			within(row, mine.at, HOUR_MS) &&
			first(row),
	);
}
