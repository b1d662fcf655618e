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

/**
 * Sends a relay until n8n takes it. A workflow saved over while published is registered again
 * in the background: for a moment its webhook answers 404 ("not registered") although the
 * preflight of waitForWebhook passed. A 404 ran nothing, so sending again cannot run it twice.
 */
export async function sentUntilTaken(
	send: () => Promise<{ status: number }>,
	timeoutMs = 30_000,
): Promise<number> {
	return await pollUntil(
		async () => {
			const { status } = await send();
			return status === 404 ? undefined : status;
		},
		'the relay taken by the workflow published again',
		timeoutMs,
	);
}
