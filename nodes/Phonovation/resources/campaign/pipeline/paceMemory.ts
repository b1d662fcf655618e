// The provider's pace remembered between runs of a workflow: aged, bounded, and only a hint.
import { PACING, type PaceLearned, type PaceStart } from './pacer';

/**
 * The provider's pace, remembered between runs of one workflow per provider account, so a
 * scheduled or webhook-started run does not climb from `PACING.start` each time. It is a hint:
 * aged, bounded, and lost without harm (a restart, another worker).
 *
 * - A run starts at the remembered window, halved for every `halfLifeMs` since it was saved but
 *   never below where a first run starts; after `forgetAfterMs` it starts as a first run does.
 * - A limit the provider refused at within `forgetAfterMs` is not exceeded at the start, and is
 *   probed again once the wait the refusing run computed has passed since the refusal.
 * - What a run learned is kept when it was cut (slow answers, a 429); a run that only grew keeps
 *   the higher of its window and the remembered one, so a run of three texts does not forget 200.
 */
export const PACE_MEMORY = {
	halfLifeMs: 15 * 60_000,
	forgetAfterMs: 60 * 60_000,
	/** Paces kept (workflow × account); the least recently saved go first. */
	entries: 256,
	/** Largest window kept: Parallel Requests' own maximum. */
	maxWindow: 1000,
} as const;

export interface RememberedPace {
	window: number;
	/** When it was saved (ms since the epoch). */
	at: number;
	limit?: number;
	limitAt?: number;
	probeAfterMs?: number;
}

const recent = (at: number | undefined, now: number): at is number =>
	at !== undefined && at <= now && now - at <= PACE_MEMORY.forgetAfterMs;

/** The remembered window as it stands `now`, halved every half-life. */
const aged = (pace: RememberedPace, now: number): number =>
	pace.window * 0.5 ** ((now - pace.at) / PACE_MEMORY.halfLifeMs);

/** Where a run starts from a remembered pace; undefined: as a first run. */
export function startingPace(pace: RememberedPace | undefined, now: number): PaceStart | undefined {
	if (!pace || !recent(pace.at, now)) return undefined;
	const window = Math.max(PACING.start, aged(pace, now));
	if (pace.limit === undefined || !recent(pace.limitAt, now)) return { window };
	return {
		window: Math.min(window, pace.limit),
		limit: pace.limit,
		probeInMs: Math.max(0, pace.limitAt + (pace.probeAfterMs ?? 0) - now),
	};
}

/** What to remember after a run, or undefined when the run learned nothing (no answers). */
export function paceToRemember(
	previous: RememberedPace | undefined,
	learned: PaceLearned,
	now: number,
): RememberedPace | undefined {
	if (learned.answers === 0) return undefined;
	const known = previous && recent(previous.at, now) ? previous : undefined;
	const kept = known && !learned.cut ? aged(known, now) : 0;
	const window = Math.min(PACE_MEMORY.maxWindow, Math.max(1, learned.window, kept));
	const next: RememberedPace = { window, at: now };
	if (learned.refused) {
		next.limit = learned.refused.limit;
		next.limitAt = now - learned.refused.agoMs;
		next.probeAfterMs = learned.refused.probeAfterMs;
	} else if (known?.limit !== undefined && recent(known.limitAt, now) && window <= known.limit) {
		// Not refused this run and not past it either: the old limit still stands.
		next.limit = known.limit;
		next.limitAt = known.limitAt;
		next.probeAfterMs = known.probeAfterMs;
	}
	return next;
}

/** Remembered paces by key, bounded: expired ones and the oldest beyond `entries` are dropped. */
export class PaceBook {
	private readonly paces = new Map<string, RememberedPace>();

	startFor(key: string, now: number): PaceStart | undefined {
		return startingPace(this.paces.get(key), now);
	}

	learn(key: string, learned: PaceLearned, now: number): void {
		const pace = paceToRemember(this.paces.get(key), learned, now);
		if (!pace) return;
		// Re-inserted, so the Map's order is the order of saving: the oldest come first.
		this.paces.delete(key);
		this.paces.set(key, pace);
		for (const [other, kept] of this.paces) {
			if (this.paces.size <= PACE_MEMORY.entries && recent(kept.at, now)) break;
			this.paces.delete(other);
		}
	}
}
