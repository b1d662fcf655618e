/**
 * The simulator's notion of "now": real time plus an offset, or a frozen instant. Token expiry,
 * `sendAt` checks and relay timestamps all read it, so tests can jump past 120 s at once.
 */
export class SimulatorClock {
	private offsetMs = 0;

	private frozenAt?: number;

	now(): number {
		return this.frozenAt ?? Date.now() + this.offsetMs;
	}

	advance(seconds: number): void {
		if (!Number.isFinite(seconds)) throw new Error('advance() needs a number of seconds');
		if (this.frozenAt !== undefined) this.frozenAt += seconds * 1000;
		else this.offsetMs += seconds * 1000;
	}

	freeze(): void {
		this.frozenAt = this.now();
	}

	/** Time runs again from the frozen instant (it does not jump back to real time). */
	unfreeze(): void {
		if (this.frozenAt === undefined) return;
		this.offsetMs = this.frozenAt - Date.now();
		this.frozenAt = undefined;
	}

	get frozen(): boolean {
		return this.frozenAt !== undefined;
	}

	reset(): void {
		this.offsetMs = 0;
		this.frozenAt = undefined;
	}
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `yyyy-MM-dd HH:mm:ss` in UTC, the relays' `SMS-TimeStamp` format. */
export function relayTimestamp(ms: number): string {
	const d = new Date(ms);
	return (
		`${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
		`${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
	);
}

/**
 * ISO-8601 UTC with 5 to 7 fractional digits, like the provider's `FinishedAt`
 * (`2026-04-09T14:39:40.69257Z`). Digits past the millisecond are made up.
 */
export function finishedAt(ms: number, fractionDigits: 5 | 6 | 7 = 7): string {
	const iso = new Date(ms).toISOString(); // 2026-04-09T14:39:40.692Z
	const subMillisecond = String(1000 + Math.floor(Math.random() * 9000)).slice(1) + '7';
	const fraction = (iso.slice(20, 23) + subMillisecond).slice(0, fractionDigits);
	return `${iso.slice(0, 19)}.${fraction}Z`;
}
