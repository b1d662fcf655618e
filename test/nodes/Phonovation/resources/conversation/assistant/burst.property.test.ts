import fc from 'fast-check';

import {
	type BurstBounds,
	burstPlaces,
	flushWords,
	UNBOUNDED,
} from '../../../../../../nodes/Phonovation/resources/conversation/assistant/burstBounds';
import {
	MAX_TEXTS,
	MAX_WAIT_SECONDS,
} from '../../../../../../nodes/Phonovation/resources/conversation/assistant/collectBurst';
import {
	type LoggedMessage,
	placesOf,
	settling,
} from '../../../../../../nodes/Phonovation/resources/conversation/assistant/messages';

/**
 * Collect Burst's rule (settling) over generated timelines of one person's texts: when each reached
 * n8n (its relay stretched by a busy webhook process) and when its run logged it (handed over in
 * time, or late under a backlog), each run reading the log a quiet time after it logged its text,
 * as the node does, and claiming as the inbox's Claim Messages does. Pure: the rule, not n8n.
 */
const QUIET = 5_000;
const PHONE = '353871234567';
const START = Date.parse('2026-12-01T10:00:00.000Z');
const iso = (ms: number) => new Date(START + ms).toISOString();
/** Collect Burst's defaults (Max Wait 60 s, Max Texts 10, no flush words): a normal burst is cut by quiet time. */
const DEFAULTS: BurstBounds = {
	maxWaitMs: MAX_WAIT_SECONDS.fallback * 1000,
	maxTexts: MAX_TEXTS.fallback,
	flushes: flushWords(''),
};

interface Text {
	id: string;
	arrived: number;
	logged: number;
	readAt: number;
	/** The provider's stamp (whole seconds, when it was sent); none from a relay without one. */
	stamped?: number;
	/** When the person sent it (what the stamp rounds down). */
	sent?: number;
	/** What it says (its id when not given). */
	says?: string;
	/** Its signed text's key (its own when not given): another text's key makes it a copy of that text. */
	key?: string;
}

/** The provider's stamp of a text sent at `ms`: whole seconds of its own clock. */
const stampOf = (ms: number) => Math.floor((START + ms) / 1000) * 1000 - START;

/** Whether both texts were stamped and really sent less than `ms` apart (the generator knows when). */
const sentClose = (a: Text, b: Text, ms: number) =>
	a.stamped !== undefined &&
	b.stamped !== undefined &&
	a.sent !== undefined &&
	b.sent !== undefined &&
	Math.abs(b.sent - a.sent) < ms;

/** Bursts of texts sent within half a quiet time, bursts apart; relays stretched, hand-overs in time or late. */
const timeline = fc
	.array(
		fc.record({
			pause: fc.integer({ min: 0, max: 30_000 }),
			gaps: fc.array(fc.integer({ min: 0, max: QUIET / 2 }), { minLength: 0, maxLength: 3 }),
		}),
		{ minLength: 1, maxLength: 4 },
	)
	.chain((bursts) => {
		const sent: number[] = [];
		let at = 0;
		for (const { pause, gaps } of bursts) {
			at += pause;
			sent.push(at);
			for (const gap of gaps) sent.push((at += gap));
		}
		const delays = fc.record({
			stretch: fc.integer({ min: 0, max: 3_000 }),
			lag: fc.oneof(fc.integer({ min: 50, max: 800 }), fc.integer({ min: 1_000, max: 40_000 })),
			read: fc.integer({ min: 0, max: 2_000 }),
			stamped: fc.boolean(),
		});
		return fc.tuple(...sent.map(() => delays)).map((each) =>
			sent.map((ms, i): Text => {
				const arrived = ms + each[i].stretch;
				const logged = arrived + each[i].lag;
				return {
					id: `in:${i}`,
					arrived,
					logged,
					readAt: logged + QUIET + each[i].read,
					...(each[i].stamped ? { stamped: stampOf(ms), sent: ms } : {}),
				};
			}),
		);
	});

/**
 * Runs every text's run on the timeline; the turns put out, each with its texts' ids (its
 * claimer's first). A text that ends its burst at once (a flush word, Max Texts) is settled when
 * it is logged, as the node does, instead of at its read.
 */
function play(
	texts: Text[],
	bounds: BurstBounds = UNBOUNDED,
	/** When our replies to the person were logged. */
	replies: number[] = [],
): { turns: string[][]; rows: LoggedMessage[]; turnAt: Map<string, number> } {
	const rows: LoggedMessage[] = replies.map((at, i) => ({
		kind: 'out',
		phone: PHONE,
		key: `reply ${i}`,
		text: 'our reply',
		at: iso(at),
		arrivedAt: '',
		providerAt: '',
		id: `out:${i}`,
		turn: '',
		seq: null,
	}));
	const events = [
		...texts.map((text) => ({ at: text.logged, log: true, text })),
		...texts.map((text) => ({ at: text.readAt, log: false, text })),
	].sort((a, b) => a.at - b.at || Number(b.log) - Number(a.log));
	const turns: string[][] = [];
	/** When each turn went out, by its claimer. */
	const turnAt = new Map<string, number>();
	const settled = new Set<string>();
	const settle = (text: Text, at: number) => {
		settled.add(text.id);
		const mine = rows.find((row) => row.id === text.id)!;
		const next = settling(
			rows.map((row) => ({ ...row })),
			{ ...mine },
			QUIET,
			bounds,
		);
		if (!('claim' in next)) return;
		const turn = `turn:${mine.id}`;
		for (const row of rows)
			if (row.kind === 'in' && row.turn === '' && row.at <= mine.at) row.turn = turn;
		const taken = rows.filter((row) => row.turn === turn).map((row) => row.id);
		if (!taken.includes(mine.id)) return;
		turns.push([mine.id, ...taken.filter((id) => id !== mine.id)]);
		turnAt.set(mine.id, at);
	};
	for (const { at, log, text } of events) {
		if (!log) {
			if (!settled.has(text.id)) settle(text, at);
			continue;
		}
		const row: LoggedMessage = {
			kind: 'in',
			phone: PHONE,
			key: text.key ?? `key ${text.id}`,
			text: text.says ?? text.id,
			at: iso(text.logged),
			arrivedAt: iso(text.arrived),
			providerAt: text.stamped === undefined ? '' : iso(text.stamped),
			id: text.id,
			turn: '',
			seq: rows.length + 1,
		};
		rows.push(row);
		if (placesOf(rows, row, { quietMs: QUIET, bounds }).get(row.id)?.endsAtOnce) settle(text, at);
	}
	return { turns, rows, turnAt };
}

/** Texts that came within `gap` of the one before, in arrival order: the chains. */
function chains(texts: Text[], gap: number): string[][] {
	const sorted = [...texts].sort((a, b) => a.arrived - b.arrived);
	const out: string[][] = [];
	sorted.forEach((text, i) => {
		// Stamps join texts sent less than a quiet time apart, at the most.
		const close = (a: Text) => text.arrived - a.arrived <= gap || sentClose(a, text, gap);
		if (i > 0 && close(sorted[i - 1])) out.at(-1)!.push(text.id);
		else out.push([text.id]);
	});
	return out;
}

describe('Collect Burst over generated timelines of one person', () => {
	it('never puts out a turn whose every text belongs to a burst answered before', () => {
		fc.assert(
			fc.property(timeline, (texts) => {
				const { turns } = play(texts);
				const byId = new Map(texts.map((text) => [text.id, text]));
				// Of a burst answered already: reached n8n within a quiet time before one of its texts, or
				// after one within half of it, or within all of it when held back (reached n8n a second
				// or more before that turn's run read the log). Such a text may ride along with the
				// person's next burst, never make a turn of its own.
				const ofAnswered = (id: string, answered: Array<{ text: Text; readFrom: number }>) =>
					answered.some(({ text: other, readFrom }) => {
						const text = byId.get(id)!;
						const after = text.arrived - other.arrived;
						const heldBack = text.arrived <= readFrom - 1_000;
						// Stamps a second apart or more prove texts sent a second closer than that.
						if (sentClose(other, text, QUIET - 1_000)) return true;
						if (after < 0) return -after <= QUIET;
						return after <= (heldBack ? QUIET : QUIET / 2);
					});
				const answered: Array<{ text: Text; readFrom: number }> = [];
				for (const turn of turns) {
					expect(turn.every((id) => ofAnswered(id, answered))).toBe(false);
					// The turn's run read the log a quiet time after its claimer was logged, or later.
					const readFrom = byId.get(turn[0])!.logged + QUIET;
					answered.push(...turn.map((id) => ({ text: byId.get(id)!, readFrom })));
				}
			}),
			{ seed: 7, numRuns: 2_000 },
		);
	});

	it('a burst sent 1.2 s apart and stretched by a storm, however late each text, gets one turn', () => {
		const storm = fc.tuple(
			...[0, 1_200, 2_400].map((sent) =>
				fc
					.record({
						stretch: fc.integer({ min: 0, max: 1_000 }),
						lag: fc.integer({ min: 50, max: 40_000 }),
						read: fc.integer({ min: 0, max: 2_000 }),
					})
					.map(({ stretch, lag, read }) => ({ arrived: sent + stretch, lag, read })),
			),
		);
		fc.assert(
			fc.property(storm, (timing) => {
				const texts = timing.map(({ arrived, lag, read }, i): Text => ({
					id: `in:${i}`,
					arrived,
					logged: arrived + lag,
					readAt: arrived + lag + QUIET + read,
				}));
				// Collect Burst's default bounds leave such a burst whole.
				expect(play(texts, DEFAULTS).turns).toHaveLength(1);
			}),
			{ seed: 7, numRuns: 2_000 },
		);
	});

	it("a burst sent 1.2 s apart, its relays held up to 30 s each (queue mode under a storm), gets one turn by the provider's stamps", () => {
		const storm = fc.record({
			// The provider's clock against n8n's, within a second: where its whole seconds fall.
			offset: fc.integer({ min: 0, max: 999 }),
			texts: fc.tuple(
				...[0, 1_200, 2_400].map((sent) =>
					fc
						.record({
							stretch: fc.integer({ min: 0, max: 30_000 }),
							lag: fc.integer({ min: 50, max: 40_000 }),
							read: fc.integer({ min: 0, max: 2_000 }),
						})
						.map((delays) => ({ sent, ...delays })),
				),
			),
		});
		fc.assert(
			fc.property(storm, ({ offset, texts }) => {
				const played = texts.map(({ sent, stretch, lag, read }, i): Text => ({
					id: `in:${i}`,
					arrived: sent + stretch,
					logged: sent + stretch + lag,
					readAt: sent + stretch + lag + QUIET + read,
					stamped: stampOf(sent + offset),
				}));
				expect(play(played, DEFAULTS).turns).toHaveLength(1);
			}),
			{ seed: 7, numRuns: 2_000 },
		);
	});

	it("the provider's stamps, true or forged, never make more turns than the arrivals alone, whatever the bounds", () => {
		const bounded = fc.record({
			maxWaitMs: fc.integer({ min: 2_000, max: 60_000 }),
			maxTexts: fc.integer({ min: 1, max: 6 }),
		});
		// A forged stamp: moved up to 10 s either way (a relay replayed with a stamp of the attacker's).
		const forgeries = fc.array(fc.option(fc.integer({ min: -10_000, max: 10_000 })), {
			minLength: 16,
			maxLength: 16,
		});
		fc.assert(
			fc.property(timeline, bounded, forgeries, (texts, limits, forged) => {
				const bounds = { ...limits, flushes: flushWords('') };
				const stamped = texts.map((text, i) =>
					forged[i] === null || text.stamped === undefined
						? text
						: { ...text, stamped: stampOf(text.stamped + forged[i]!) },
				);
				const plain = texts.map(({ stamped: _stamp, sent: _sent, ...text }) => text);
				expect(play(stamped, bounds).turns.length).toBeLessThanOrEqual(
					play(plain, bounds).turns.length,
				);
			}),
			{ seed: 7, numRuns: 3_000 },
		);
	});

	it("a captured relay posted again after our reply, its stamp moved next to the burst it was in, carries no genuine text there: a repeat's stamp is not believed", () => {
		// "in:1" is "in:0"'s relay posted again 65 s later, after our reply (so it passes as a repeat),
		// its stamp moved to 1 s after in:0's. "in:2", the person's genuine next text 2 s after it,
		// must get a turn: believed, the stamp joined in:1 to in:0's answered burst and in:2 with it.
		const { turns } = play(
			[
				{ id: 'in:0', arrived: 0, logged: 100, readAt: 5_100, stamped: stampOf(0), sent: 0 },
				{
					id: 'in:1',
					key: 'key in:0',
					arrived: 65_000,
					logged: 65_100,
					readAt: 70_100,
					stamped: stampOf(1_000),
				},
				{
					id: 'in:2',
					arrived: 67_000,
					logged: 67_100,
					readAt: 72_100,
					stamped: stampOf(67_000),
					sent: 67_000,
				},
			],
			UNBOUNDED,
			[6_000],
		);
		expect(turns).toEqual([['in:0'], ['in:2', 'in:1']]);
	});

	it('leaves no text unanswered but one within a quiet time of an answered burst', () => {
		fc.assert(
			fc.property(timeline, (texts) => {
				const { rows } = play(texts, DEFAULTS);
				for (const chain of chains(texts, QUIET)) {
					const answered = rows.some((row) => chain.includes(row.id) && row.turn !== '');
					expect(answered).toBe(true);
				}
			}),
			{ seed: 7, numRuns: 2_000 },
		);
	});

	it('answers a message sent after the quiet time, handed over in time, even when the provider delayed the one before', () => {
		// "Hi" reached n8n 0.6 s after it was sent; the next came 5.5 s after it was sent, 4.9 s after
		// "Hi" reached n8n, and was logged 0.15 s after Hi's run read the log.
		const { turns } = play([
			{ id: 'in:0', arrived: 600, logged: 700, readAt: 5_700 },
			{ id: 'in:1', arrived: 5_500, logged: 5_850, readAt: 10_850 },
		]);
		expect(turns).toEqual([['in:0'], ['in:1']]);
	});

	/**
	 * Runs of texts 1 s to half a quiet time apart, runs more than a quiet time apart, some texts
	 * flush words; handed over in time and in order, read soon after the quiet time.
	 */
	const inTime = fc
		.record({
			runs: fc.array(
				fc.record({
					pause: fc.integer({ min: QUIET + 3_000, max: 30_000 }),
					gaps: fc.array(fc.integer({ min: 1_000, max: QUIET / 2 }), { maxLength: 12 }),
				}),
				{ minLength: 1, maxLength: 3 },
			),
			maxWaitMs: fc.integer({ min: 2_000, max: 20_000 }),
			maxTexts: fc.integer({ min: 1, max: 6 }),
			flushEvery: fc.integer({ min: 0, max: 5 }),
		})
		.chain(({ runs, ...bounds }) => {
			const sent: number[] = [];
			let at = 0;
			for (const { pause, gaps } of runs) {
				sent.push((at += pause));
				for (const gap of gaps) sent.push((at += gap));
			}
			const delays = fc.record({
				lag: fc.integer({ min: 50, max: 800 }),
				read: fc.integer({ min: 0, max: 200 }),
			});
			return fc.tuple(...sent.map(() => delays)).map((each) => ({
				bounds,
				texts: sent.map((ms, i): Text => ({
					id: `in:${String(i).padStart(2, '0')}`,
					arrived: ms,
					logged: ms + each[i].lag,
					readAt: ms + each[i].lag + QUIET + each[i].read,
					says: bounds.flushEvery > 0 && i % bounds.flushEvery === 0 ? 'Go!' : `text ${i}`,
				})),
			}));
		});

	it('with Max Wait, Max Texts and flush words, every burst they cut is answered in one turn, at once when it ends by one', () => {
		fc.assert(
			fc.property(inTime, ({ bounds: { maxWaitMs, maxTexts }, texts }) => {
				const bounds = { maxWaitMs, maxTexts, flushes: flushWords('go, send') };
				const { turns, turnAt } = play(texts, bounds);
				const places = burstPlaces(
					texts.map((text) => ({ id: text.id, text: text.says!, sentAt: text.arrived })),
					QUIET,
					bounds,
				);
				const bursts = new Map<number, string[]>();
				for (const [id, place] of places)
					bursts.set(place.burst, [...(bursts.get(place.burst) ?? []), id]);
				// Every text in one turn; a turn is its claimer's burst, and when the claimer ends it at
				// once, the bursts before it whose runs were still waiting (one reply sooner, not two).
				expect(turns.flat().sort()).toEqual(texts.map((text) => text.id));
				for (const turn of turns) {
					const of = new Set(turn.map((id) => places.get(id)!.burst));
					for (const burst of of) expect(turn).toEqual(expect.arrayContaining(bursts.get(burst)!));
					const own = places.get(turn[0])!;
					if (!own.endsAtOnce) expect([...of]).toEqual([own.burst]);
				}
				const byId = new Map(texts.map((text) => [text.id, text]));
				for (const [claimer, at] of turnAt) {
					const text = byId.get(claimer)!;
					// A flush word or the Max Texts-th text goes out when it is logged, not a quiet time later.
					if (places.get(claimer)!.endsAtOnce) expect(at).toBe(text.logged);
					// Nobody waits past Max Wait plus a quiet time (and the hand-over) for their turn.
					const first = Math.min(
						...turns.find((turn) => turn[0] === claimer)!.map((id) => byId.get(id)!.arrived),
					);
					expect(at - first).toBeLessThanOrEqual(maxWaitMs + QUIET + 800 + 200);
				}
			}),
			{ seed: 7, numRuns: 1_000 },
		);
	});

	it('a person texting every 2 s for a minute gets a turn by Max Wait, and every text is answered once', () => {
		const texts = Array.from({ length: 30 }, (_, i): Text => ({
			id: `in:${String(i).padStart(2, '0')}`,
			arrived: i * 2_000,
			logged: i * 2_000 + 300,
			readAt: i * 2_000 + 300 + QUIET,
		}));
		const { turns, turnAt } = play(texts, { ...UNBOUNDED, maxWaitMs: 20_000 });
		expect(turns.map((turn) => turn.length)).toEqual([10, 10, 10]);
		// The first turn goes out when the last text before Max Wait is read, not after the minute.
		expect(turnAt.get(turns[0][0])).toBe(18_000 + 300 + QUIET);
		// Without Max Wait they wait for the whole minute.
		expect(play(texts).turns.map((turn) => turn.length)).toEqual([30]);
	});

	it('a text logged late that shifts the Max Texts count leaves no later text unanswered', () => {
		// c is the second text logged, so it ends its burst at once and claims a and c; b, sent
		// before it, is logged after d: d, sent after c, still gets a turn.
		const { turns, rows } = play(
			[
				{ id: 'a', arrived: 0, logged: 100, readAt: 100 + QUIET },
				{ id: 'b', arrived: 1_000, logged: 3_500, readAt: 3_500 + QUIET },
				{ id: 'c', arrived: 2_000, logged: 2_100, readAt: 2_100 + QUIET },
				{ id: 'd', arrived: 3_000, logged: 3_100, readAt: 3_100 + QUIET },
			],
			{ ...UNBOUNDED, maxTexts: 2 },
		);
		expect(rows.filter((row) => row.turn === '')).toEqual([]);
		expect(turns.map((turn) => [...turn].sort())).toEqual([
			['a', 'c'],
			['b', 'd'],
		]);
	});

	it('answers a text sent alone, in time, on its own', () => {
		const { turns } = play([{ id: 'in:0', arrived: 0, logged: 300, readAt: 5_400 }]);
		expect(turns).toEqual([['in:0']]);
	});
});
