import { Pool } from 'undici';

import type { LoadRequest, LoadResult } from './load';

export interface HeaderLoadRequest extends LoadRequest {
	/** Extra request headers sent with every body (e.g. a Header Auth credential's header). */
	headers: Record<string, string>;
}

/**
 * postConcurrently (load.ts) with extra request headers: POSTs every body once, keeping
 * `concurrency` requests in flight over as many kept-alive connections, and times each round trip.
 */
export async function postConcurrentlyWithHeaders({
	url,
	contentType,
	bodies,
	concurrency,
	headers,
}: HeaderLoadRequest): Promise<LoadResult> {
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
				if (response.statusCode !== 200) failures.push(`${response.statusCode}: ${text.slice(0, 200)}`);
			} catch (error) {
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
