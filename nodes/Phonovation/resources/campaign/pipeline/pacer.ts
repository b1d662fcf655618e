/**
 * How many campaign requests may be in flight at once, shared by every campaign of a run. A 429
 * pauses everyone: requests in flight finish, new ones wait out the provider's Retry-After, and
 * the limit steps down (halved, at least 1). It climbs back by one after each limit's worth of
 * answers without a 429, never above the configured ceiling.
 */
export class Pacer {
	private inFlight = 0;
	private pausedUntil = 0;
	private answeredSince429 = 0;
	/** Bumped by every 429: answers to requests started before it say nothing about the new limit. */
	private generation = 0;
	private limit: number;
	private readonly waiting: Array<() => void> = [];

	constructor(
		private readonly ceiling: number,
		private readonly clock: { now(): number; sleep(ms: number): Promise<void> },
	) {
		this.limit = ceiling;
	}

	get currentLimit(): number {
		return this.limit;
	}

	/** Waits for a free slot and for any pause to pass; hand what it returns to `release`. */
	async acquire(): Promise<number> {
		for (;;) {
			const pause = this.pausedUntil - this.clock.now();
			if (pause > 0) {
				await this.clock.sleep(pause);
				continue;
			}
			if (this.inFlight < this.limit) {
				this.inFlight++;
				return this.generation;
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
	}

	/** A slot is free again; `answered`: the provider answered with anything but 429. */
	release(acquired: number, answered: boolean): void {
		this.inFlight--;
		const current = acquired === this.generation;
		if (answered && current && this.limit < this.ceiling && ++this.answeredSince429 >= this.limit) {
			this.limit++;
			this.answeredSince429 = 0;
			this.waiting.shift()?.();
		}
		this.waiting.shift()?.();
	}

	/** The provider answered 429: pause new requests for `seconds` and ask less from now on. */
	tooMany(seconds: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + seconds * 1000);
		this.limit = Math.max(1, Math.floor(this.limit / 2));
		this.answeredSince429 = 0;
		this.generation++;
	}
}
