/**
 * Whether the machine or the product failed: the end-to-end suite waits out n8n's transient
 * answers (503 while its database or workers catch up, a refused connection while it restarts)
 * and notes each one; a failing test's message then carries the load and what was waited out.
 */
import { cpus, freemem, loadavg } from 'node:os';

/** How long one REST call waits out n8n's transient answers before it fails. */
export const TRANSIENT_WAIT_MS = 90_000;

const transient: Array<{ at: number; what: string }> = [];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function noteTransient(what: string): void {
	transient.push({ at: Date.now(), what });
}

/** The network error under undici's "fetch failed", e.g. ECONNREFUSED or UND_ERR_SOCKET. */
export function networkCode(error: unknown): string {
	const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
	return cause?.code ?? 'no code';
}

export function refusedConnection(error: unknown): boolean {
	return networkCode(error) === 'ECONNREFUSED';
}

/** The connection closed or reset under a request. */
export function droppedConnection(error: unknown): boolean {
	return ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(networkCode(error));
}

/**
 * A paragraph for a failure message: the load on the machine and the transient answers n8n gave
 * during this test file. A load well over the core count, or answers that n8n was not ready,
 * point at the machine; neither points at the product.
 */
export function machineReport(): string {
	const cores = cpus().length;
	const [one, five] = loadavg();
	const busy = one > cores * 1.5 || five > cores * 1.5;
	const lines = [
		`Machine: ${cores} cores, load average ${one.toFixed(1)} (1 min) / ${five.toFixed(1)} (5 min), ` +
			`${(freemem() / 2 ** 30).toFixed(1)} GiB free${busy ? ' — BUSY: the machine may be why this failed' : ''}.`,
	];
	if (transient.length) {
		const last = transient.slice(-3).map((t) => `${new Date(t.at).toISOString()} ${t.what}`);
		lines.push(
			`n8n gave ${transient.length} transient answer(s) in this file, waited out (last: ${last.join('; ')}).`,
		);
	} else {
		lines.push('n8n gave no transient answer in this file: look at the product first.');
	}
	return lines.join('\n');
}
