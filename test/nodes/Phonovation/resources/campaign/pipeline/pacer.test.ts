import { Pacer } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/pacer';

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
	const tickets: Array<Promise<number>> = [];
	for (let i = 0; i < count; i++) tickets.push(pacer.acquire().then((ticket) => (granted.push(i), ticket)));
	return { granted, tickets };
}

describe('Pacer: campaign requests in flight', () => {
	it('lets as many requests as the ceiling start at once; the next starts when one ends', async () => {
		const pacer = new Pacer(3, new HandClock());
		const { granted, tickets } = acquireMany(pacer, 4);
		await settle();
		expect(granted).toEqual([0, 1, 2]);
		pacer.release(await tickets[0], true);
		await settle();
		expect(granted).toEqual([0, 1, 2, 3]);
	});

	it('after a 429 pauses new requests for the Retry-After and halves the limit', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(8, clock);
		const first = await pacer.acquire();
		pacer.tooMany(2);
		pacer.release(first, false);
		expect(pacer.currentLimit).toBe(4);

		const { granted } = acquireMany(pacer, 5);
		await settle();
		expect(granted).toEqual([]);
		expect(clock.slept[0]).toBe(2000);
		await clock.advance(1999);
		expect(granted).toEqual([]);
		await clock.advance(1);
		expect(granted).toEqual([0, 1, 2, 3]);
	});

	it('a second 429 during a pause keeps the later end, and the limit never drops below 1', async () => {
		const clock = new HandClock();
		const pacer = new Pacer(2, clock);
		pacer.tooMany(5);
		pacer.tooMany(1);
		pacer.tooMany(1);
		expect(pacer.currentLimit).toBe(1);
		const { granted } = acquireMany(pacer, 2);
		await clock.advance(4999);
		expect(granted).toEqual([]);
		await clock.advance(1);
		expect(granted).toEqual([0]);
	});

	it('climbs back by one after each limit\'s worth of answers without a 429, up to the ceiling', async () => {
		const pacer = new Pacer(4, new HandClock());
		pacer.tooMany(0);
		expect(pacer.currentLimit).toBe(2);
		const answer = async () => pacer.release(await pacer.acquire(), true);
		await answer();
		expect(pacer.currentLimit).toBe(2);
		await answer();
		expect(pacer.currentLimit).toBe(3);
		for (let i = 0; i < 2; i++) await answer();
		expect(pacer.currentLimit).toBe(3);
		await answer();
		expect(pacer.currentLimit).toBe(4);
		for (let i = 0; i < 10; i++) await answer();
		expect(pacer.currentLimit).toBe(4);
	});

	it('a raised limit lets one more waiting request start at once', async () => {
		const pacer = new Pacer(2, new HandClock());
		pacer.tooMany(0);
		const held = await pacer.acquire();
		const { granted } = acquireMany(pacer, 2);
		await settle();
		expect(granted).toEqual([]);
		pacer.release(held, true);
		await settle();
		expect(pacer.currentLimit).toBe(2);
		expect(granted).toEqual([0, 1]);
	});

	it('neither a 429 nor an answer to a request started before the last 429 raises the limit', async () => {
		const pacer = new Pacer(4, new HandClock());
		const before = await Promise.all([pacer.acquire(), pacer.acquire(), pacer.acquire()]);
		pacer.tooMany(0);
		for (const ticket of before) pacer.release(ticket, true);
		expect(pacer.currentLimit).toBe(2);
		pacer.release(await pacer.acquire(), false);
		pacer.release(await pacer.acquire(), false);
		expect(pacer.currentLimit).toBe(2);
	});
});
