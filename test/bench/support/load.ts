import { Pool } from 'undici';

export interface LoadResult {
	/** Wall time from the first request to the last answer. */
	elapsedMs: number;
	/** Each request's round trip, in the order they finished. */
	latenciesMs: number[];
	/** Answers other than 200, as `status: body`, and requests without one as `0: error` (should be empty). */
	failures: string[];
	/** Every answer's HTTP status, in the order they finished; 0 for a request that got none. */
	statuses: number[];
}

export interface LoadRequest {
	url: string;
	contentType: string;
	bodies: string[];
	concurrency: number;
	/** Extra request headers sent with every body (e.g. a Header Auth credential's header). */
	headers?: Record<string, string>;
}

/**
 * POSTs every body once, keeping `concurrency` requests in flight over as many kept-alive
 * connections, and times each round trip.
 */
export async function postConcurrently({
	url,
	contentType,
	bodies,
	concurrency,
	headers = {},
}: LoadRequest): Promise<LoadResult> {
	const target = new URL(url);
	const pool = new Pool(target.origin, { connections: concurrency, pipelining: 1 });
	const path = `${target.pathname}${target.search}`;
	const latenciesMs: number[] = [];
	const failures: string[] = [];
	const statuses: number[] = [];
	let next = 0;
	const worker = async () => {
		while (next < bodies.length) {
			const body = bodies[next++];
			const started = performance.now();
			try {
				const response = await pool.request({
					method: 'POST',
					path,
					headers: { ...headers, 'content-type': contentType },
					body,
				});
				const text = await response.body.text();
				statuses.push(response.statusCode);
				if (response.statusCode !== 200)
					failures.push(`${response.statusCode}: ${text.slice(0, 200)}`);
			} catch (error) {
				// No answer at all (the server dropped the connection): status 0.
				statuses.push(0);
				failures.push(`0: ${error instanceof Error ? error.message : String(error)}`);
			}
			latenciesMs.push(performance.now() - started);
		}
	};
	const started = performance.now();
	try {
		await Promise.all(Array.from({ length: concurrency }, worker));
	} finally {
		await pool.close();
	}
	return { elapsedMs: performance.now() - started, latenciesMs, failures, statuses };
}
