/**
 * Polls `probe` until it returns something other than undefined, then resolves with it; throws
 * with `what` once `timeoutMs` has passed.
 */
export async function pollUntil<T>(
	probe: () => T | undefined | Promise<T | undefined>,
	what: string,
	timeoutMs: number,
	intervalMs = 250,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}
