/** The middle value (mean of the two middle ones for an even count). */
export function median(values: number[]): number {
	if (values.length === 0) throw new Error('median of nothing');
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Nearest-rank percentile, p in (0, 100]. */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) throw new Error('percentile of nothing');
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.ceil((p / 100) * sorted.length);
	return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function round(value: number, digits = 0): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

/**
 * Runs the contenders in alternation, and swaps who goes first every round (a, b, then b, a …),
 * so drift on a shared machine (other jobs, thermal limits, GC state) and whatever the previous
 * run left behind hit both alike. Returns each one's results in round order.
 */
export async function alternate<T>(
	rounds: number,
	contenders: Record<string, (round: number) => Promise<T>>,
): Promise<Record<string, T[]>> {
	const results: Record<string, T[]> = Object.fromEntries(
		Object.keys(contenders).map((name) => [name, []]),
	);
	const order = Object.entries(contenders);
	for (let round = 0; round < rounds; round++) {
		const thisRound = round % 2 === 0 ? order : [...order].reverse();
		for (const [name, run] of thisRound) results[name].push(await run(round));
	}
	return results;
}

/** Milliseconds a promise took. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
	const started = performance.now();
	const value = await work();
	return { value, ms: performance.now() - started };
}
