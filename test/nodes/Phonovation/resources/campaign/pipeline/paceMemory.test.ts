import {
	PACE_MEMORY,
	PaceBook,
	paceToRemember,
	startingPace,
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

	it('forgets a pace saved longer ago than an hour, or in the future (the clock was set back)', () => {
		expect(
			startingPace({ window: 200, at: NOW }, NOW + PACE_MEMORY.forgetAfterMs + 1),
		).toBeUndefined();
		expect(startingPace({ window: 200, at: NOW + MINUTE }, NOW)).toBeUndefined();
	});

	it('a limit refused at recently caps the start, even below 8, until what is left of its probe wait', () => {
		const pace = { window: 20, at: NOW, limit: 1, limitAt: NOW, probeAfterMs: 2000 };
		expect(startingPace(pace, NOW + 500)).toEqual({ window: 1, limit: 1, probeInMs: 1500 });
		expect(startingPace(pace, NOW + MINUTE)).toEqual({ window: 1, limit: 1, probeInMs: 0 });
		const old = { ...pace, limitAt: NOW - PACE_MEMORY.forgetAfterMs };
		expect(startingPace(old, NOW + MINUTE)).toEqual({ window: expect.any(Number) });
	});
});

describe('paceToRemember: what a run leaves for the next', () => {
	it('a first run keeps the window it reached', () => {
		expect(paceToRemember(undefined, grown(96), NOW)).toEqual({ window: 96, at: NOW });
	});

	it('a run with no answers (a dry run, all refused) learned nothing', () => {
		expect(paceToRemember({ window: 96, at: NOW }, grown(8, 0), NOW)).toBeUndefined();
	});

	it('a small run that only grew keeps the higher remembered window', () => {
		const next = paceToRemember({ window: 200, at: NOW - 6 * MINUTE }, grown(11, 3), NOW);
		expect(next?.window).toBeGreaterThan(150);
	});

	it('a run that was cut (slow answers) keeps its lower window', () => {
		const learned = { window: 40, answers: 500, cut: true };
		expect(paceToRemember({ window: 200, at: NOW }, learned, NOW)).toEqual({ window: 40, at: NOW });
	});

	it('a 429 keeps the limit, when it was refused and the wait before probing it', () => {
		const learned = {
			window: 10,
			answers: 50,
			cut: true,
			refused: { limit: 12, agoMs: 300, probeAfterMs: 500 },
		};
		expect(paceToRemember(undefined, learned, NOW)).toEqual({
			window: 10,
			at: NOW,
			limit: 12,
			limitAt: NOW - 300,
			probeAfterMs: 500,
		});
	});

	it('a limit not refused again stands while the window stays under it, even a limit of 1', () => {
		const strict = { window: 1, at: NOW - 6 * MINUTE, limit: 1, limitAt: NOW - 6 * MINUTE };
		expect(paceToRemember(strict, grown(1, 20), NOW)).toMatchObject({ window: 1, limit: 1 });
		const pace = { window: 12, at: NOW - 6 * MINUTE, limit: 12, limitAt: NOW - 6 * MINUTE };
		expect(paceToRemember(pace, grown(12), NOW)).toMatchObject({
			limit: 12,
			limitAt: pace.limitAt,
		});
		// Past it without a refusal: the provider takes more now, the limit goes.
		expect(paceToRemember(pace, grown(30), NOW)).toEqual({ window: 30, at: NOW });
	});

	it('keeps windows within Parallel Requests’ range', () => {
		expect(paceToRemember(undefined, grown(5000), NOW)?.window).toBe(PACE_MEMORY.maxWindow);
		const tiny = { window: 0.2, answers: 1, cut: true };
		expect(paceToRemember(undefined, tiny, NOW)?.window).toBe(1);
	});
});

describe('PaceBook: the paces of one n8n process', () => {
	it('gives each key its own pace', () => {
		const book = new PaceBook();
		book.learn('a', grown(64), NOW);
		expect(book.startFor('a', NOW)).toEqual({ window: 64 });
		expect(book.startFor('b', NOW)).toBeUndefined();
	});

	it(`keeps at most ${PACE_MEMORY.entries}, dropping the least recently saved and the expired`, () => {
		const book = new PaceBook();
		book.learn('old', grown(64), NOW - PACE_MEMORY.forgetAfterMs - 1);
		for (let i = 0; i < PACE_MEMORY.entries + 1; i++) book.learn(`k${i}`, grown(64), NOW + i);
		const later = NOW + PACE_MEMORY.entries + 1;
		expect(book.startFor('k0', later)).toBeUndefined();
		expect(book.startFor('k1', later)).toEqual({ window: expect.any(Number) });
		expect(book.startFor(`k${PACE_MEMORY.entries}`, later)).toEqual({ window: expect.any(Number) });
		// Saving again makes a pace the newest.
		book.learn('k1', grown(64), later);
		book.learn('extra', grown(64), later);
		expect(book.startFor('k1', later)).toBeDefined();
		expect(book.startFor('k2', later)).toBeUndefined();
	});
});
