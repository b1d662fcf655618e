import {
	PACING,
	Pacer,
	type Slot,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/pacer';

/** A clock the test moves by hand: `sleep` resolves when the test advances past its end. */
class HandClock {
	private time = 0;
	private sleepers: Array<{ until: number; wake: () => void }> = [];
	readonly slept: number[] = [];

	now(): number {
		return this.time;
	}

	sleep(ms: number): Promise<void> {
		this.slept.push(ms);
		return new Promise((wake) => this.sleepers.push({ until: this.time + ms, wake }));
	}

	async advance(ms: number): Promise<void> {
		this.time += ms;
		const due = this.sleepers.filter((sleeper) => sleeper.until <= this.time);
		this.sleepers = this.sleepers.filter((sleeper) => sleeper.until > this.time);
		for (const sleeper of due) sleeper.wake();
		await settle();
	}
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Starts `count` acquisitions and reports which have been granted so far. */
function acquireMany(pacer: Pacer, count: number) {
	const granted: number[] = [];
	const tickets: Array<Promise<Slot>> = [];
	for (let i = 0; i < count; i++)
		tickets.push(pacer.acquire().then((ticket) => (granted.push(i), ticket)));
	return { granted, tickets };
}

const fixed = (ceiling: number) => ({ ceiling, adaptive: false });
const adaptive = (ceiling: number) => ({ ceiling, adaptive: true });

/** One round trip: fill the window, let the clock run `ms`, answer them all. */
async function roundTrip(
	pacer: Pacer,
	clock: HandClock,
	ms: number,
	answered = true,
): Promise<number> {
	const width = pacer.currentLimit;
	const slots = await Promise.all(Array.from({ length: width }, () => pacer.acquire()));
	await clock.advance(ms);
	for (const slot of slots) pacer.release(slot, answered);
	return width;
}

/**
 * After one fast round trip (8 → 16), sends 16 of which the provider holds 10 and refuses 6 with
 * this Retry-After; the 10 are answered `answeredAfterMs` later.
 */
async function refusedAboveTen(
	retryAfter: number,
	answeredAfterMs: number,
): Promise<{ pacer: Pacer; clock: HandClock }> {
	const clock = new HandClock();
	const pacer = new Pacer(adaptive(100), clock);
	await roundTrip(pacer, clock, 50);
	const slots = await Promise.all(Array.from({ length: 16 }, () => pacer.acquire()));
	for (const slot of slots.slice(10)) {
		pacer.release(slot, false);
		pacer.tooMany(retryAfter);
	}
	await clock.advance(answeredAfterMs);
	for (const slot of slots.slice(0, 10)) pacer.release(slot, true);
	return { pacer, clock };
}

describe('Pacer, fixed: Parallel Requests pinned', () => {
	it('lets as many requests as the ceiling start at once; the next starts when one ends', async () => {
		const pacer = new Pacer(fixed(3), new HandClock());
		const { granted, tickets } = acquireMany(pacer, 4);
		await settle();
		expect(granted).toEqual([0, 1, 2]);
		pacer.release(await tickets[0], true);
		await settle();
		expect(granted).toEqual([0, 1, 2, 3]);
	});

	it('a 429 pauses every new request for the Retry-After and halves the number', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(fixed(8), clock);
		const first = await pacer.acquire();
		pacer.release(first, false);
		pacer.tooMany(2);
		expect(pacer.currentLimit).toBe(4);
		const { granted } = acquireMany(pacer, 9);
		await settle();
		expect(granted).toEqual([]);
		expect(clock.slept[0]).toBe(2000);
		await clock.advance(1999);
		expect(granted).toEqual([]);
		await clock.advance(1);
		expect(granted).toEqual([0, 1, 2, 3]);
	});

	it("then climbs back by one after each window's worth of answers, up to the pinned number", async () => {
		const pacer = new Pacer(fixed(4), new HandClock());
		pacer.tooMany(0);
		expect(pacer.currentLimit).toBe(2);
		const answer = async () => pacer.release(await pacer.acquire(), true);
		for (let i = 0; i < 2; i++) await answer();
		expect(pacer.currentLimit).toBe(2);
		await answer();
		expect(pacer.currentLimit).toBe(3);
		for (let i = 0; i < 3; i++) await answer();
		expect(pacer.currentLimit).toBe(4);
		for (let i = 0; i < 10; i++) await answer();
		expect(pacer.currentLimit).toBe(4);
	});

	it('a second 429 during a pause keeps the later end', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(fixed(2), clock);
		pacer.tooMany(5);
		pacer.tooMany(1);
		const { granted } = acquireMany(pacer, 1);
		await clock.advance(4999);
		expect(granted).toEqual([]);
		await clock.advance(1);
		expect(granted).toEqual([0]);
	});

	it('slow answers change nothing', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(fixed(4), clock);
		await roundTrip(pacer, clock, 10);
		for (let i = 0; i < 5; i++) await roundTrip(pacer, clock, 500);
		expect(pacer.currentLimit).toBe(4);
	});
});

describe("Pacer, adaptive: finds the provider's pace below the ceiling", () => {
	it(`starts at ${PACING.start} and doubles each round trip while answers stay fast, up to the ceiling`, async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(100), clock);
		const widths: number[] = [];
		for (let i = 0; i < 6; i++) widths.push(await roundTrip(pacer, clock, 50));
		expect(widths).toEqual([8, 16, 32, 64, 100, 100]);
	});

	it('never starts above a ceiling lower than its start', async () => {
		const pacer = new Pacer(adaptive(3), new HandClock());
		const { granted } = acquireMany(pacer, 5);
		await settle();
		expect(granted).toEqual([0, 1, 2]);
	});

	it('answers twice as slow as usual cut the window by a fifth, once a round trip; then it grows by one a round trip', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(1000), clock);
		for (let i = 0; i < 4; i++) await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit).toBe(128);
		// The provider slows down: more than a hundred slow answers in one round trip, one cut.
		await roundTrip(pacer, clock, 400);
		const afterCut = pacer.currentLimit;
		expect(afterCut).toBeGreaterThanOrEqual(Math.floor(128 * PACING.cutTo));
		expect(afterCut).toBeLessThanOrEqual(Math.ceil(130 * PACING.cutTo));
		// Fast again: it grows by about one a round trip, no longer doubling.
		await roundTrip(pacer, clock, 50);
		const settled = pacer.currentLimit;
		for (let i = 0; i < 3; i++) await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit - settled).toBeGreaterThanOrEqual(2);
		expect(pacer.currentLimit - settled).toBeLessThanOrEqual(4);
	});

	it('one odd fast answer does not make the usual answers look slow', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(64), clock);
		await roundTrip(pacer, clock, 50);
		pacer.release(await pacer.acquire(), true);
		for (let i = 0; i < 4; i++) await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit).toBe(64);
	});

	it('a few milliseconds of jitter on a fast provider is no strain', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(64), clock);
		await roundTrip(pacer, clock, 1);
		for (let i = 0; i < 6; i++) await roundTrip(pacer, clock, 12);
		expect(pacer.currentLimit).toBe(64);
	});

	it('a 429 pauses everyone and cuts the window to what the provider still holds, never below half', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(100), clock);
		await roundTrip(pacer, clock, 50);
		await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit).toBe(32);
		// 32 go out; the provider holds 20 and refuses 12 at once.
		const slots = await Promise.all(Array.from({ length: 32 }, () => pacer.acquire()));
		for (const slot of slots.slice(20)) {
			pacer.release(slot, false);
			pacer.tooMany(1);
		}
		expect(pacer.currentLimit).toBe(20);
		const { granted } = acquireMany(pacer, 1);
		await clock.advance(999);
		expect(granted).toEqual([]);
		for (const slot of slots.slice(0, 20)) pacer.release(slot, true);
		await clock.advance(1);
		expect(granted).toEqual([0]);

		// A lone 429 with little in flight halves the window at most.
		const other = new Pacer(adaptive(100), new HandClock());
		const one = await other.acquire();
		other.release(one, false);
		other.tooMany(0);
		expect(other.currentLimit).toBe(4);
	});

	it('does not probe above the limit a 429 found until ten Retry-Afters have passed', async () => {
		const { pacer, clock } = await refusedAboveTen(1, 1000);
		expect(pacer.currentLimit).toBe(10);
		// Fast, clean answers for nine more seconds: the window stays at the known limit.
		for (let i = 0; i < 180; i++) await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit).toBe(10);
		// Past ten Retry-Afters it probes again, one more a round trip.
		for (let i = 0; i < 5; i++) await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit).toBeGreaterThan(10);
		expect(pacer.currentLimit).toBeLessThanOrEqual(16);
	});

	it('an answer to a request started before a cut does not cut again', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(100), clock);
		await roundTrip(pacer, clock, 50);
		const old = await Promise.all(Array.from({ length: 8 }, () => pacer.acquire()));
		const stale = old.pop() as Slot;
		pacer.tooMany(0);
		const cut = pacer.currentLimit;
		await clock.advance(500);
		pacer.release(stale, true);
		expect(pacer.currentLimit).toBe(cut);
		for (const slot of old) pacer.release(slot, false);
	});

	it('after a 429 with Retry-After: 0 the limit it found holds for ten round trips before it probes', async () => {
		const { pacer, clock } = await refusedAboveTen(0, 50);
		expect(pacer.currentLimit).toBe(10);
		for (let i = 0; i < 8; i++) await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit).toBe(10);
		for (let i = 0; i < 4; i++) await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit).toBeGreaterThan(10);
	});

	it('a request repeated after a 429 goes before those already waiting', async () => {
		const pacer = new Pacer(fixed(1), new HandClock());
		const held = await pacer.acquire();
		const order: string[] = [];
		const waiting = pacer.acquire().then((slot) => (order.push('waiting'), slot));
		await settle();
		const repeat = pacer.acquire(true).then((slot) => (order.push('repeat'), slot));
		await settle();
		pacer.release(held, true);
		pacer.release(await repeat, true);
		pacer.release(await waiting, true);
		expect(order).toEqual(['repeat', 'waiting']);
	});

	it('a request that failed without an answer teaches nothing', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(100), clock);
		for (let i = 0; i < 3; i++) await roundTrip(pacer, clock, 50, false);
		expect(pacer.currentLimit).toBe(PACING.start);
	});
});

describe('Pacer, adaptive, starting from a remembered pace', () => {
	it('starts at the remembered window and doubles from there', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(200), clock, { window: 40 });
		const widths: number[] = [];
		for (let i = 0; i < 3; i++) widths.push(await roundTrip(pacer, clock, 50));
		expect(widths).toEqual([40, 80, 160]);
	});

	it('never starts above the ceiling', () => {
		expect(new Pacer(adaptive(16), new HandClock(), { window: 40 }).currentLimit).toBe(16);
	});

	it('stays at a remembered limit until its probe time, then grows by one a round trip', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(100), clock, { window: 12, limit: 12, probeInMs: 500 });
		for (let i = 0; i < 9; i++) expect(await roundTrip(pacer, clock, 50)).toBe(12);
		await roundTrip(pacer, clock, 50);
		await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit).toBeGreaterThan(12);
		expect(pacer.currentLimit).toBeLessThanOrEqual(14);
	});

	it('below a remembered limit it still doubles, up to the limit', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(100), clock, { window: 3, limit: 12, probeInMs: 10_000 });
		const widths: number[] = [];
		for (let i = 0; i < 5; i++) widths.push(await roundTrip(pacer, clock, 50));
		expect(widths).toEqual([3, 6, 12, 12, 12]);
	});

	it('forgets its refusal once the window grows past it', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(100), clock);
		await roundTrip(pacer, clock, 50);
		pacer.tooMany(0);
		// Nothing in flight when refused: halved, 16 → 8.
		expect(pacer.learned().refused).toMatchObject({ limit: 8 });
		for (let i = 0; i < 40; i++) await roundTrip(pacer, clock, 50);
		expect(pacer.currentLimit).toBeGreaterThan(8);
		expect(pacer.learned().refused).toBeUndefined();
	});

	it('a 429 still halves it at once', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(256), clock, { window: 200 });
		const slot = await pacer.acquire();
		pacer.release(slot, false);
		pacer.tooMany(0);
		expect(pacer.currentLimit).toBe(100);
		expect(pacer.learned()).toEqual({
			window: 100,
			answers: 0,
			cut: true,
			refused: { limit: 100, agoMs: 0, probeAfterMs: 10_000 },
		});
	});

	it('says what it learned: the window, answers, and whether it was cut', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(adaptive(100), clock);
		await roundTrip(pacer, clock, 50);
		expect(pacer.learned()).toEqual({ window: 16, answers: 8, cut: false });
	});
});
