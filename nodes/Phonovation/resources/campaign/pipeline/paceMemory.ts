import { createHash } from 'crypto';

import { PACING, type PaceLearned, type PaceStart } from './pacer';

/**
 * The provider's pace, remembered between runs of one workflow, per provider account (credential
 * and campaign URL), so a scheduled or webhook-started run does not climb from `PACING.start`
 * each time. It is a hint: read back with every field checked (workflow static data is anyone's
 * to edit), aged, and lost without harm when a concurrent run's save overwrites it.
 *
 * - A run starts at the remembered window, halved for every `halfLifeMs` since it was saved but
 *   never below where a first run starts; after `forgetAfterMs` it starts as a first run does.
 * - A limit the provider refused at within `forgetAfterMs` is not exceeded at the start, and is
 *   probed again only after the wait the refusing run computed (as within one run).
 * - What a run learned is kept when it was cut (slow answers, a 429); a run that only grew keeps
 *   the higher of its window and the remembered one, so a run of three texts does not forget 200.
 */
export const PACE_MEMORY = {
	halfLifeMs: 15 * 60_000,
	forgetAfterMs: 60 * 60_000,
	/** A pace that changed less than this share is not saved again (each save rewrites static data)… */
	changedBy: 0.1,
	/** …unless it was saved longer ago than this, so a pace in use does not age away. */
	refreshAfterMs: 5 * 60_000,
	/** Accounts kept per workflow; the least recently saved go first. */
	accounts: 8,
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

/** Where the paces live in the workflow's static data: account key → RememberedPace. */
export const PACE_STATIC_KEY = 'phonovationPace';

/** A short key for an account, so static data holds no URL or credential name. */
export function accountKey(credentialId: string, campaignUrl: string): string {
	return createHash('sha256')
		.update(`${credentialId}\n${campaignUrl}`)
		.digest('base64url')
		.slice(0, 16);
}

const positive = (value: unknown, max: number): value is number =>
	typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= max;

/** A remembered pace read back from static data, or undefined when it is not one. */
export function readRemembered(value: unknown): RememberedPace | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as Record<string, unknown>;
	if (!positive(v.window, PACE_MEMORY.maxWindow) || !positive(v.at, Number.MAX_SAFE_INTEGER))
		return undefined;
	const pace: RememberedPace = { window: v.window, at: v.at };
	if (positive(v.limit, PACE_MEMORY.maxWindow) && positive(v.limitAt, Number.MAX_SAFE_INTEGER)) {
		pace.limit = Math.floor(v.limit);
		pace.limitAt = v.limitAt;
		pace.probeAfterMs = positive(v.probeAfterMs, PACE_MEMORY.forgetAfterMs) ? v.probeAfterMs : 0;
	}
	return pace;
}

const recent = (at: number | undefined, now: number): at is number =>
	at !== undefined && at <= now && now - at <= PACE_MEMORY.forgetAfterMs;

/** The remembered window as it stands `now`: aged, never below a first run's start. */
function agedWindow(pace: RememberedPace, now: number): number {
	const aged = pace.window * 0.5 ** ((now - pace.at) / PACE_MEMORY.halfLifeMs);
	return Math.max(PACING.start, aged);
}

/** Where a run starts from a remembered pace; undefined: as a first run. */
export function startingPace(pace: RememberedPace | undefined, now: number): PaceStart | undefined {
	if (!pace || !recent(pace.at, now)) return undefined;
	const window = agedWindow(pace, now);
	if (pace.limit === undefined || !recent(pace.limitAt, now)) return { window };
	return {
		window: Math.min(window, pace.limit),
		limit: pace.limit,
		probeInMs: pace.probeAfterMs ?? 0,
	};
}

/** What to save after a run; undefined: what is remembered is still good (no write). */
export function paceToRemember(
	previous: RememberedPace | undefined,
	learned: PaceLearned,
	now: number,
): RememberedPace | undefined {
	const known = previous && recent(previous.at, now) ? previous : undefined;
	const grown = known && !learned.cut ? Math.max(learned.window, agedWindow(known, now)) : 0;
	const window = Math.min(PACE_MEMORY.maxWindow, Math.max(1, learned.window, grown));
	const next: RememberedPace = { window, at: now };
	if (learned.refused) {
		next.limit = learned.refused.limit;
		next.limitAt = now;
		next.probeAfterMs = learned.refused.probeAfterMs;
	} else if (known?.limit !== undefined && recent(known.limitAt, now) && window <= known.limit) {
		// Not refused this run and not past it either: the old limit still stands.
		next.limit = known.limit;
		next.limitAt = known.limitAt;
		next.probeAfterMs = known.probeAfterMs;
	}
	if (!known || known.limit !== next.limit || now - known.at >= PACE_MEMORY.refreshAfterMs)
		return next;
	return Math.abs(window / known.window - 1) > PACE_MEMORY.changedBy ? next : undefined;
}

/** The account's pace in static data's `phonovationPace` (any shape: it is checked). */
export function rememberedFor(paces: unknown, key: string): RememberedPace | undefined {
	if (typeof paces !== 'object' || paces === null) return undefined;
	return Object.prototype.hasOwnProperty.call(paces, key)
		? readRemembered((paces as Record<string, unknown>)[key])
		: undefined;
}

/** The paces to save: this account's new one, and at most `accounts - 1` others, newest first. */
export function withPace(
	paces: unknown,
	key: string,
	pace: RememberedPace,
): Record<string, RememberedPace> {
	const others: Array<[string, RememberedPace]> = [];
	if (typeof paces === 'object' && paces !== null)
		for (const [other, value] of Object.entries(paces)) {
			const read = other === key ? undefined : readRemembered(value);
			if (read) others.push([other, read]);
		}
	others.sort((a, b) => b[1].at - a[1].at);
	return Object.fromEntries([[key, pace], ...others.slice(0, PACE_MEMORY.accounts - 1)]);
}
