import { Pool } from 'undici';

/** One HTTP request to send, as raw as a hostile sender could make it. */
export interface OutgoingRequest {
	method?: string;
	/** Path and query on the target's origin, e.g. `/webhook/<id>/phonovation?token=x`. */
	path: string;
	headers?: Record<string, string>;
	body?: string | Buffer;
}

export interface Answer {
	/** The HTTP status, or 0 when the request failed without one (connection reset…). */
	status: number;
	/** The first 300 characters of the response body, or the transport error. */
	body: string;
	/** The response's Content-Type and X-Content-Type-Options headers ('' when absent). */
	contentType?: string;
	nosniff?: string;
}

/**
 * Sends every request once over a pool of `concurrency` kept-alive connections to `origin`,
 * `concurrency` requests in flight at a time. Answers come back in the order of the requests.
 */
export async function sendConcurrently(
	origin: string,
	requests: OutgoingRequest[],
	concurrency: number,
): Promise<Answer[]> {
	const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
	const answers: Answer[] = new Array(requests.length);
	let next = 0;
	const worker = async () => {
		while (next < requests.length) {
			const index = next++;
			const { method = 'POST', path, headers = {}, body } = requests[index];
			try {
				const response = await pool.request({ method: method as 'POST', path, headers, body });
				const header = (name: string) => String(response.headers[name] ?? '');
				answers[index] = {
					status: response.statusCode,
					body: (await response.body.text()).slice(0, 300),
					contentType: header('content-type'),
					nosniff: header('x-content-type-options'),
				};
			} catch (error) {
				answers[index] = {
					status: 0,
					body: `${(error as Error).name}: ${(error as Error).message}`,
				};
			}
		}
	};
	try {
		await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
	} finally {
		await pool.close();
	}
	return answers;
}

/** How many answers had each status, e.g. `{ 200: 1998, 503: 2 }`. */
export function statusHistogram(answers: Answer[]): Record<number, number> {
	const histogram: Record<number, number> = {};
	for (const { status } of answers) histogram[status] = (histogram[status] ?? 0) + 1;
	return histogram;
}
