import {
	accountKey,
	PACE_MEMORY,
	paceToRemember,
	readRemembered,
	rememberedFor,
	startingPace,
	withPace,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/paceMemory';
import { PACING } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/pacer';

const NOW = 1_800_000_000_000;
const MINUTE = 60_000;
const grown = (window: number, answers = 100) => ({ window, answers, cut: false });

describe('startingPace: where a run starts from what an earlier run learned', () => {
	it('a first run (nothing remembered) starts as before', () => {
		expect(startingPace(undefined, NOW)).toBeUndefined();
	});

	it('starts at the remembered window, halved every half-life, never below a first run’s start', () => {
		const pace = { window: 200, at: NOW };
		expect(startingPace(pace, NOW)).toEqual({ window: 200 });
		expect(startingPace(pace, NOW + PACE_MEMORY.halfLifeMs)?.window).toBeCloseTo(100);
		expect(startingPace(pace, NOW + 2 * PACE_MEMORY.halfLifeMs)?.window).toBeCloseTo(50);
		expect(startingPace({ window: 12, at: NOW }, NOW + 30 * MINUTE)?.window).toBe(PACING.start);
	});

	it('forgets a pace saved longer ago than an hour, or in the future (another machine’s clock)', () => {
		expect(
			startingPace({ window: 200, at: NOW }, NOW + PACE_MEMORY.forgetAfterMs + 1),
		).toBeUndefined();
		expect(startingPace({ window: 200, at: NOW + MINUTE }, NOW)).toBeUndefined();
	});

	it('a limit refused at recently caps the start, even below 8, until it is probed again', () => {
		const pace = { window: 20, at: NOW, limit: 1, limitAt: NOW, probeAfterMs: 2000 };
		expect(startingPace(pace, NOW + MINUTE)).toEqual({ window: 1, limit: 1, probeInMs: 2000 });
		const old = { ...pace, limitAt: NOW - PACE_MEMORY.forgetAfterMs };
		expect(startingPace(old, NOW + MINUTE)).toEqual({ window: expect.any(Number) });
	});
});

describe('paceToRemember: what a run leaves for the next', () => {
	it('a first run keeps the window it reached', () => {
		expect(paceToRemember(undefined, grown(96), NOW)).toEqual({ window: 96, at: NOW });
	});

	it('a run that learned nothing new is not saved again (no static data write)', () => {
		const pace = { window: 96, at: NOW };
		expect(paceToRemember(pace, grown(100), NOW + MINUTE)).toBeUndefined();
		// …until the remembered one is old enough to refresh, so a pace in use does not age away.
		expect(paceToRemember(pace, grown(96), NOW + PACE_MEMORY.refreshAfterMs)).toEqual({
			window: 96,
			at: NOW + PACE_MEMORY.refreshAfterMs,
		});
	});

	it('a small run that only grew keeps the higher remembered window', () => {
		const pace = { window: 200, at: NOW - 6 * MINUTE };
		const next = paceToRemember(pace, grown(11, 3), NOW);
		expect(next?.window).toBeGreaterThan(150);
	});

	it('a run that was cut (slow answers) keeps its lower window', () => {
		const next = paceToRemember(
			{ window: 200, at: NOW },
			{ window: 40, answers: 500, cut: true },
			NOW,
		);
		expect(next).toEqual({ window: 40, at: NOW });
	});

	it('a 429 keeps the limit, when and the wait before probing it', () => {
		const learned = {
			window: 10,
			answers: 50,
			cut: true,
			refused: { limit: 12, probeAfterMs: 500 },
		};
		expect(paceToRemember(undefined, learned, NOW)).toEqual({
			window: 10,
			at: NOW,
			limit: 12,
			limitAt: NOW,
			probeAfterMs: 500,
		});
	});

	it('a limit not refused again stands while the window stays under it, and goes once past it', () => {
		const pace = {
			window: 12,
			at: NOW - 6 * MINUTE,
			limit: 12,
			limitAt: NOW - 6 * MINUTE,
			probeAfterMs: 500,
		};
		expect(paceToRemember(pace, grown(12), NOW)).toMatchObject({
			limit: 12,
			limitAt: pace.limitAt,
		});
		expect(paceToRemember(pace, grown(30), NOW)).toEqual({ window: 30, at: NOW });
	});

	it('keeps windows within Parallel Requests’ range', () => {
		expect(paceToRemember(undefined, grown(5000), NOW)?.window).toBe(PACE_MEMORY.maxWindow);
		expect(paceToRemember(undefined, { window: 0.2, answers: 1, cut: true }, NOW)?.window).toBe(1);
	});
});

describe('static data as anyone may have left it', () => {
	it('reads back only well-formed paces', () => {
		expect(readRemembered({ window: 50, at: NOW })).toEqual({ window: 50, at: NOW });
		for (const junk of [
			null,
			'fast',
			[],
			{ window: '50', at: NOW },
			{ window: 50 },
			{ window: -1, at: NOW },
			{ window: Infinity, at: NOW },
		])
			expect(readRemembered(junk)).toBeUndefined();
		// A broken limit is dropped, the window kept.
		expect(readRemembered({ window: 50, at: NOW, limit: 'x', limitAt: NOW })).toEqual({
			window: 50,
			at: NOW,
		});
	});

	it('finds an account by its own key only, never through the prototype', () => {
		expect(rememberedFor({ a: { window: 5, at: NOW } }, 'a')).toEqual({ window: 5, at: NOW });
		expect(rememberedFor({}, 'constructor')).toBeUndefined();
		expect(rememberedFor('nonsense', 'a')).toBeUndefined();
	});

	it('keeps at most eight accounts, the newest', () => {
		const paces = Object.fromEntries(
			Array.from({ length: 12 }, (_, i) => [`k${i}`, { window: 10, at: NOW - i * MINUTE }]),
		);
		const kept = withPace({ ...paces, junk: 'x' }, 'new', { window: 20, at: NOW });
		expect(Object.keys(kept)).toEqual(['new', 'k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
	});

	it('keys an account by credential and URL without holding either', () => {
		const key = accountKey('cred-1', 'https://api.example.test/api/v2/Campaign');
		expect(key).toMatch(/^[\w-]{16}$/);
		expect(key).not.toBe(accountKey('cred-2', 'https://api.example.test/api/v2/Campaign'));
		expect(key).not.toBe(accountKey('cred-1', 'https://other.example.test/api/v2/Campaign'));
	});
});
