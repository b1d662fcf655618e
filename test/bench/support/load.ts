import { Pool } from 'undici';

export interface LoadResult {
	/** Wall time from the first request to the last answer. */
	elapsedMs: number;
	/** Each request's round trip, in the order they finished. */
	latenciesMs: number[];
	/** Answers other than 200, as `status: body` (should be empty). */
	failures: string[];
}

export interface LoadRequest {
	url: string;
	contentType: string;
	bodies: string[];
	concurrency: number;
}

/**
 * POSTs every body once, keeping `concurrency` requests in flight over as many kept-alive
 * connections, and times each round trip.
 */
export async function postConcurrently({ url, contentType, bodies, concurrency }: LoadRequest): Promise<LoadResult> {
	const target = new URL(url);
	const pool = new Pool(target.origin, { connections: concurrency, pipelining: 1 });
	const path = `${target.pathname}${target.search}`;
	const latenciesMs: number[] = [];
	const failures: string[] = [];
	let next = 0;
	const worker = async () => {
		while (next < bodies.length) {
			const body = bodies[next++];
			const started = performance.now();
			const response = await pool.request({ method: 'POST', path, headers: { 'content-type': contentType }, body });
			const text = await response.body.text();
			latenciesMs.push(performance.now() - started);
			if (response.statusCode !== 200) failures.push(`${response.statusCode}: ${text.slice(0, 200)}`);
		}
	};
	const started = performance.now();
	try {
		await Promise.all(Array.from({ length: concurrency }, worker));
	} finally {
		await pool.close();
	}
	return { elapsedMs: performance.now() - started, latenciesMs, failures };
}
