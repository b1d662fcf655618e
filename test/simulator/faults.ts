/** A failure to inject into the next request(s) of one path, before normal handling. */
export type Fault =
	| { kind: 'status'; status: number; retryAfter?: number; body?: unknown }
	| { kind: 'delay'; ms: number }
	| { kind: 'reset' }
	/** The request is handled as usual (a campaign is recorded), then answered with this instead. */
	| { kind: 'answer'; status: number; body: string }
	/** The provider's clock jumps forward as this request arrives, then it is handled as usual. */
	| { kind: 'advanceClock'; seconds: number };

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
		if (typeof path !== 'string' || !path.startsWith('/')) throw new Error('path must start with /');
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
		if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599 || typeof body !== 'string') {
			throw new Error('an answer fault needs an integer status between 200 and 599 and a string body');
		}
		return;
	}
	if (kind === 'advanceClock') {
		const { seconds } = fault as { seconds: unknown };
		if (!(typeof seconds === 'number' && seconds > 0)) throw new Error('an advanceClock fault needs seconds > 0');
		return;
	}
	throw new Error('fault.kind must be status, delay, reset, answer or advanceClock');
}
