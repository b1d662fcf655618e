/** A failure to inject into the next request(s) of one path, before normal handling. */
export type Fault =
	/**
	 * Answered at once with this status, before anything is processed: a campaign-shaped JSON body
	 * by default; a string body goes as `contentType` (text/plain unless given), e.g. a proxy's HTML page.
	 */
	| { kind: 'status'; status: number; retryAfter?: number; body?: unknown; contentType?: string }
	| { kind: 'delay'; ms: number }
	| { kind: 'reset' }
	/**
	 * The request is handled as usual (a campaign is recorded), then answered with this instead, as
	 * `contentType` (text/plain unless given): a 200 `{"success":false}` as application/json, a
	 * proxy's 502/503/504 HTML page after the API processed the request.
	 */
	| { kind: 'answer'; status: number; body: string; contentType?: string }
	/**
	 * The request is handled as usual; when the provider accepts it (`success: true`), its `errors` are
	 * rewritten in a shape the provider does not show (docs/provider-api.md#campaign-response):
	 * `objects` (`{ msisdn, error }` for each), `mixed`
	 * (strings, objects, a `null` and an object naming no number), or `null` (`null` instead of `[]`).
	 */
	| { kind: 'errorsAs'; shape: ErrorsShape }
	/** The provider's clock jumps forward as this request arrives, then it is handled as usual. */
	| { kind: 'advanceClock'; seconds: number };

export const ERRORS_SHAPES = ['objects', 'mixed', 'null'] as const;
export type ErrorsShape = (typeof ERRORS_SHAPES)[number];

export interface PendingFault {
	path: string;
	fault: Fault;
	remaining: number;
}

/** Paths match case-insensitively, without query or trailing slash (as the routes do). */
export function routeKey(path: string): string {
	const bare = path.split('?')[0].toLowerCase();
	return bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
}

export class FaultQueue {
	private pending: PendingFault[] = [];

	add(path: string, fault: Fault, times = 1): void {
		validateFault(fault);
		if (!Number.isInteger(times) || times < 1) throw new Error('times must be a positive integer');
		if (typeof path !== 'string' || !path.startsWith('/'))
			throw new Error('path must start with /');
		this.pending.push({ path: routeKey(path), fault: { ...fault }, remaining: times });
	}

	/** The fault for this request, if any; each request uses up one. */
	take(path: string): Fault | undefined {
		const key = routeKey(path);
		const entry = this.pending.find((p) => p.path === key);
		if (!entry) return undefined;
		entry.remaining--;
		if (entry.remaining === 0) this.pending.splice(this.pending.indexOf(entry), 1);
		return entry.fault;
	}

	list(): PendingFault[] {
		return this.pending.map((p) => ({ ...p, fault: { ...p.fault } }));
	}

	clear(): void {
		this.pending = [];
	}
}

function validateFault(fault: Fault): void {
	const kind = (fault as { kind?: unknown })?.kind;
	if (kind === 'status') {
		const { status, retryAfter } = fault as { status: unknown; retryAfter?: unknown };
		if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599) {
			throw new Error('a status fault needs an integer status between 200 and 599');
		}
		if (retryAfter !== undefined && !(typeof retryAfter === 'number' && retryAfter >= 0)) {
			throw new Error('retryAfter must be a number of seconds');
		}
		validateContentType(fault);
		return;
	}
	if (kind === 'delay') {
		const { ms } = fault as { ms: unknown };
		if (!(typeof ms === 'number' && ms >= 0)) throw new Error('a delay fault needs ms >= 0');
		return;
	}
	if (kind === 'reset') return;
	if (kind === 'answer') {
		const { status, body } = fault as { status: unknown; body: unknown };
		if (
			!Number.isInteger(status) ||
			(status as number) < 200 ||
			(status as number) > 599 ||
			typeof body !== 'string'
		) {
			throw new Error(
				'an answer fault needs an integer status between 200 and 599 and a string body',
			);
		}
		validateContentType(fault);
		return;
	}
	if (kind === 'errorsAs') {
		const { shape } = fault as { shape: unknown };
		if (!(ERRORS_SHAPES as readonly unknown[]).includes(shape))
			throw new Error(`an errorsAs fault needs a shape: ${ERRORS_SHAPES.join(', ')}`);
		return;
	}
	if (kind === 'advanceClock') {
		const { seconds } = fault as { seconds: unknown };
		if (!(typeof seconds === 'number' && seconds > 0))
			throw new Error('an advanceClock fault needs seconds > 0');
		return;
	}
	throw new Error('fault.kind must be status, delay, reset, answer, errorsAs or advanceClock');
}

function validateContentType(fault: Fault): void {
	const { contentType } = fault as { contentType?: unknown };
	if (
		contentType !== undefined &&
		!(typeof contentType === 'string' && /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(contentType))
	) {
		throw new Error('contentType must be a media type such as text/html');
	}
}
