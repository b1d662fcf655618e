// A 429 answered: how long to wait (Retry-After), and how often one request is repeated.
/**
 * 429 is the provider refusing before it processes anything, so repeating the same request is safe:
 * wait out Retry-After (bounded), a bounded number of times. Nothing else is repeated.
 */
export const TOO_MANY_REQUESTS = {
	/** Retries of one request after 429s. */
	maxRetries: 3,
	/** A longer Retry-After is not waited for: the request fails with the provider's answer. */
	maxWaitSeconds: 60,
	/** When the provider gives no Retry-After. */
	defaultWaitSeconds: 5,
} as const;

/** Seconds to wait before repeating a request refused with 429, or null when it should not be. */
export function waitAfterTooMany(retryAfter: string | undefined, now: Date): number | null {
	let seconds: number = TOO_MANY_REQUESTS.defaultWaitSeconds;
	const text = retryAfter?.trim();
	if (text) {
		const asDate = Date.parse(text);
		if (/^\d+(\.\d+)?$/.test(text)) seconds = Number(text);
		else if (!Number.isNaN(asDate))
			seconds = Math.max(0, Math.ceil((asDate - now.getTime()) / 1000));
	}
	return seconds <= TOO_MANY_REQUESTS.maxWaitSeconds ? seconds : null;
}
