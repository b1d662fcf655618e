/**
 * Event-loop stalls of a server, seen from outside: one client asks a cheap endpoint (n8n's
 * `/healthz`) again as soon as the previous answer arrives, one request at a time on one
 * kept-alive connection. While the server's event loop is blocked no answer comes, so the
 * longest gap between consecutive answers is the longest stall (plus one round trip).
 */
import { Client } from 'undici';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PollResult<T> {
	/** performance.now() of the answer just before the window began, then of every answer in it. */
	answeredAt: number[];
	/** Wall time of the window: until `windowMs` passed and the work finished, whichever is later. */
	elapsedMs: number;
	/**
	 * Polls that got no answer because the connection broke (a server blocked for a minute drops
	 * connections whose requests it has not read in time). They are asked again at once, so the
	 * gap runs on until the server answers.
	 */
	droppedPolls: number;
	value: T;
}

/**
 * Polls `${origin}${path}` back to back while `work` runs, for at least `windowMs`. The
 * connection is opened and used once before the window starts, so its set-up is not a gap.
 * Every answer must be 200; no answer for `giveUpMs` ends the measurement with an error.
 */
export async function pollDuring<T>(
	origin: string,
	windowMs: number,
	work: () => Promise<T>,
	{ path = '/healthz', giveUpMs = 300_000 } = {},
): Promise<PollResult<T>> {
	const client = new Client(origin, { pipelining: 1 });
	const ask = async () => {
		const response = await client.request({ method: 'GET', path });
		const text = await response.body.text();
		if (response.statusCode !== 200)
			throw new Error(`${path} answered ${response.statusCode}: ${text.slice(0, 200)}`);
		return performance.now();
	};
	try {
		const answeredAt = [await ask()];
		let droppedPolls = 0;
		let done = false;
		const polling = (async () => {
			while (!done) {
				try {
					answeredAt.push(await ask());
				} catch (error) {
					const code = (error as { code?: unknown }).code;
					const broken =
						typeof code === 'string' &&
						/^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(code);
					if (!broken || performance.now() - answeredAt[answeredAt.length - 1] > giveUpMs)
						throw error;
					droppedPolls++;
				}
			}
		})();
		const timed = Promise.all([work(), sleep(windowMs)]).finally(() => {
			done = true;
		});
		const [[value]] = await Promise.all([timed, polling]);
		return {
			answeredAt,
			elapsedMs: answeredAt[answeredAt.length - 1] - answeredAt[0],
			droppedPolls,
			value,
		};
	} finally {
		await client.close();
	}
}

/** Consecutive differences of ascending times. */
export function gapsOf(answeredAt: number[]): Array<{ from: number; to: number; ms: number }> {
	return answeredAt.slice(1).map((to, i) => ({ from: answeredAt[i], to, ms: to - answeredAt[i] }));
}

/** The longest gap between consecutive answers (0 with fewer than two). */
export function longestGap(answeredAt: number[]): number {
	return Math.max(0, ...gapsOf(answeredAt).map((gap) => gap.ms));
}

/** The longest gap that overlaps any of the intervals (e.g. while a burst was in flight). */
export function longestGapDuring(
	answeredAt: number[],
	intervals: Array<{ start: number; end: number }>,
): number {
	const overlapping = gapsOf(answeredAt).filter((gap) =>
		intervals.some((i) => gap.from < i.end && gap.to > i.start),
	);
	return Math.max(0, ...overlapping.map((gap) => gap.ms));
}

/**
 * hostile / rest, with the rest figure raised to `floorMs` first. A gap includes a full HTTP
 * round trip through the server, so a rest figure below the floor is clock resolution or luck,
 * and dividing by it would make a harmless millisecond of work under attack look like a
 * multiple of the baseline.
 */
export function stallRatio(restMaxGapMs: number, hostileMaxGapMs: number, floorMs: number): number {
	return hostileMaxGapMs / Math.max(restMaxGapMs, floorMs);
}
