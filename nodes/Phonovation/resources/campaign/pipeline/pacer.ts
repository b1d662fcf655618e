// The pacer: how many campaign requests may be in flight at once, finding the provider's pace.
import { sleep } from 'n8n-workflow';

/**
 * How many campaign requests may be in flight at once, shared by every campaign of a run.
 *
 * Adaptive (the default), Parallel Requests is a ceiling and the pacer finds the provider's pace
 * below it, the way TCP finds a link's:
 * - it starts modestly (`PACING.start` at once) and, while answers come back as fast as usual,
 *   doubles the window every round trip; after the first sign of strain it only adds one a round trip;
 * - answers that recently take twice as long as usual (the provider or the network queueing) cut
 *   the window by a fifth, at most once a round trip. "Usual" is a slow average of answer times
 *   that follows the recent average down at once, so one odd fast answer does not set it;
 * - a 429 pauses every new request for the provider's Retry-After and cuts the window to the
 *   requests it still has in flight (the provider admitted those), at least halving it at worst.
 *   The window it was refused at becomes a known limit that is probed again only after ten times
 *   the Retry-After, and at least ten round trips, have passed: probing costs about a tenth of the
 *   time, and a provider that says `Retry-After: 0` is not refused every round trip.
 * A request repeated after a 429 waits at the front of the line, so it is not the one refused again.
 *
 * A run may start where an earlier run of the same workflow left off (`PaceStart`, paceMemory.ts):
 * at the window it reached, and below a limit the provider refused at recently until that is
 * probed again. Everything after the start is the same.
 *
 * Pinned (not adaptive), the window starts at Parallel Requests and only a 429 lowers it: halved,
 * then back up by one for each window's worth of answers, up to Parallel Requests again.
 * Nothing here decides what is posted: each batch is still posted at most once, in order within
 * its campaign (post.ts); the pacer only decides when.
 */
interface PacerSettings {
	/** Parallel Requests: the most in flight at once. */
	ceiling: number;
	/** Find the provider's pace below the ceiling (true), or always use the ceiling (false). */
	adaptive: boolean;
}

/** Where an adaptive run starts instead of `PACING.start`: what an earlier run learned. */
export interface PaceStart {
	window: number;
	/** A window the provider refused at recently: not exceeded before `probeInMs` have passed. */
	limit?: number;
	probeInMs?: number;
}

/** What this run learned, for the next run to start from. */
export interface PaceLearned {
	window: number;
	/** Answers the run had (429s not counted): none, and it learned nothing. */
	answers: number;
	/** The window was cut this run (slow answers or a 429): it is knowledge, not only growth. */
	cut: boolean;
	/**
	 * The provider refused at this window this run (how long ago, and the wait before probing it
	 * again), unless the window has since grown past it.
	 */
	refused?: { limit: number; agoMs: number; probeAfterMs: number };
}

interface PacerClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

/** The wall clock and n8n's sleep: a run's pacer keeps its own, so it calls back into no caller. */
export const SYSTEM_CLOCK: PacerClock = { now: () => Date.now(), sleep };

/** What `acquire` hands out and `release` takes back. */
export interface Slot {
	/** Which cut of the window the request started after: older answers say nothing about the new window. */
	generation: number;
	startedAt: number;
}

export const PACING = {
	/** Requests in flight at the start of an adaptive run. */
	start: 8,
	/** Recent answers slower than this many times the usual are a sign of strain. */
	slowerThan: 2,
	/** …and at least this much slower, so jitter and short pauses of n8n's own event loop are not. */
	slowerByMs: 50,
	/** The window after a slow answer, as a share of what it was. */
	cutTo: 0.8,
	/** After a 429, the known limit is probed again after this many times its Retry-After… */
	probeAfterRetryAfters: 10,
	/** …and no sooner than this many round trips (a round trip counted as 1 s until one is known). */
	probeAfterRoundTrips: 10,
	/** Weight of the newest answer in the recent average of answer times… */
	recentWeight: 0.1,
	/** …and in the usual one. */
	usualWeight: 0.01,
} as const;

export class Pacer {
	private inFlight = 0;
	private pausedUntil = 0;
	private window: number;
	private growing = true;
	private generation = 0;
	private recentMs = -1;
	private usualMs = -1;
	/** The window a 429 was answered at; not exceeded again before `probeAt`. */
	private knownLimit = Infinity;
	private probeAt = 0;
	private cut = false;
	private answers = 0;
	private refused?: { limit: number; at: number; probeAfterMs: number };
	private readonly waiting: Array<() => void> = [];

	constructor(
		private readonly settings: PacerSettings,
		private readonly clock: PacerClock,
		start?: PaceStart,
	) {
		if (!settings.adaptive) {
			this.window = settings.ceiling;
			return;
		}
		this.window = Math.max(1, Math.min(settings.ceiling, start?.window ?? PACING.start));
		if (start?.limit !== undefined) {
			// Below the limit it still doubles (learn() caps it there until the probe time).
			this.knownLimit = Math.max(1, Math.floor(start.limit));
			this.probeAt = clock.now() + (start.probeInMs ?? 0);
		}
	}

	/** The window this run ends at and what cut it, for the next run (adaptive only). */
	learned(): PaceLearned {
		const refused = this.refused;
		return {
			window: this.window,
			answers: this.answers,
			cut: this.cut,
			...(refused && this.currentLimit <= refused.limit
				? {
						refused: {
							limit: refused.limit,
							agoMs: this.clock.now() - refused.at,
							probeAfterMs: refused.probeAfterMs,
						},
					}
				: {}),
		};
	}

	/** Requests that may be in flight now. */
	get currentLimit(): number {
		return Math.max(1, Math.floor(this.window));
	}

	/**
	 * Waits for a free slot and for any pause to pass; hand what it returns to `release`.
	 * `repeat`: a request the provider refused with 429, which goes first.
	 */
	async acquire(repeat = false): Promise<Slot> {
		for (;;) {
			const pause = this.pausedUntil - this.clock.now();
			if (pause > 0) {
				await this.clock.sleep(pause);
				continue;
			}
			if (this.inFlight < this.currentLimit) {
				this.inFlight++;
				return { generation: this.generation, startedAt: this.clock.now() };
			}
			await new Promise<void>((resolve) =>
				repeat ? this.waiting.unshift(resolve) : this.waiting.push(resolve),
			);
		}
	}

	/** A slot is free again; `answered`: the provider answered with anything but 429. */
	release(slot: Slot, answered: boolean): void {
		this.inFlight--;
		if (answered) {
			this.answers++;
			if (this.settings.adaptive) this.learn(slot);
			else this.recover(slot);
		}
		this.wake();
	}

	/** The provider answered 429: pause new requests for `seconds` and ask less from now on. */
	tooMany(seconds: number): void {
		const now = this.clock.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + seconds * 1000);
		this.generation++;
		if (!this.settings.adaptive) {
			this.window = Math.max(1, Math.floor(this.window / 2));
			return;
		}
		// Those still in flight were admitted: the provider's limit is about that many.
		const admitted = Math.max(Math.floor(this.window / 2), this.inFlight);
		this.window = Math.max(1, Math.min(this.window - 1, admitted));
		this.knownLimit = this.currentLimit;
		const roundTripMs = this.usualMs > 0 ? this.usualMs : 1000;
		const probeAfterMs = Math.max(
			seconds * 1000 * PACING.probeAfterRetryAfters,
			roundTripMs * PACING.probeAfterRoundTrips,
		);
		this.probeAt = now + probeAfterMs;
		this.refused = { limit: this.knownLimit, at: now, probeAfterMs };
		this.growing = false;
		this.cut = true;
	}

	/** Pinned: back up towards Parallel Requests after a 429, one for each window's worth of answers. */
	private recover(slot: Slot): void {
		if (slot.generation !== this.generation || this.window >= this.settings.ceiling) return;
		this.window = Math.min(this.settings.ceiling, this.window + 1 / this.window);
	}

	private learn(slot: Slot): void {
		const now = this.clock.now();
		const tookMs = now - slot.startedAt;
		if (this.recentMs < 0) this.recentMs = this.usualMs = tookMs;
		this.recentMs += PACING.recentWeight * (tookMs - this.recentMs);
		this.usualMs = Math.min(
			this.recentMs,
			this.usualMs + PACING.usualWeight * (tookMs - this.usualMs),
		);
		const strained =
			this.recentMs > this.usualMs * PACING.slowerThan &&
			this.recentMs - this.usualMs > PACING.slowerByMs;
		if (strained) {
			if (slot.generation !== this.generation) return;
			this.window = Math.max(1, this.window * PACING.cutTo);
			this.growing = false;
			this.cut = true;
			this.generation++;
			return;
		}
		const cap =
			now < this.probeAt ? Math.min(this.knownLimit, this.settings.ceiling) : this.settings.ceiling;
		if (this.window >= cap) return;
		// Doubling (one per answer) stops at a limit the provider refused at: past it, one a round trip.
		const doubling = this.growing && this.window < this.knownLimit;
		this.window = Math.min(cap, this.window + (doubling ? 1 : 1 / this.window));
	}

	/** Wakes as many waiting requests as there are free slots. */
	private wake(): void {
		for (let free = this.currentLimit - this.inFlight; free > 0 && this.waiting.length > 0; free--)
			this.waiting.shift()?.();
	}
}
