/**
 * How many campaign requests may be in flight at once, shared by every campaign of a run. A 429
 * pauses everyone: requests in flight finish, new ones wait out the provider's Retry-After, and
 * the limit steps down (halved, at least 1) so the provider is asked less from then on.
 */
export class Pacer {
	private inFlight = 0;
	private pausedUntil = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(
		private limit: number,
		private readonly clock: { now(): number; sleep(ms: number): Promise<void> },
	) {}

	get currentLimit(): number {
		return this.limit;
	}

	/** Waits for a free slot and for any pause to pass; call `release` when the request is answered. */
	async acquire(): Promise<void> {
		for (;;) {
			const pause = this.pausedUntil - this.clock.now();
			if (pause > 0) {
				await this.clock.sleep(pause);
				continue;
			}
			if (this.inFlight < this.limit) {
				this.inFlight++;
				return;
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
	}

	release(): void {
		this.inFlight--;
		this.waiting.shift()?.();
	}

	/** The provider answered 429: pause new requests for `seconds` and ask less from now on. */
	tooMany(seconds: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + seconds * 1000);
		this.limit = Math.max(1, Math.floor(this.limit / 2));
	}
}
