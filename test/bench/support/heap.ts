import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = () => void;

/** `global.gc` when node runs with --expose-gc; otherwise the flag is set now and gc fetched from a new context. */
function findGc(): Gc | undefined {
	const exposed = (globalThis as { gc?: Gc }).gc;
	if (typeof exposed === 'function') return exposed;
	try {
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as unknown;
		return typeof gc === 'function' ? (gc as Gc) : undefined;
	} catch {
		return undefined;
	}
}

const gc = findGc();

/** Whether a full collection can be forced (between cases and before a heap baseline). */
export const canCollectGarbage = gc !== undefined;

export function collectGarbage(): void {
	if (!gc) return;
	gc();
	gc();
}

export interface HeapReport {
	/** heapUsed when watching started (after a forced collection when possible). */
	baselineBytes: number;
	/** The most heap in use seen: sampled every few ms and read before every GC. */
	peakBytes: number;
	growthBytes: number;
}

/**
 * Watches heap use while work runs. Timer samples alone miss peaks inside long synchronous
 * stretches (n8n evaluates 100,000 expressions without yielding), so the used size V8 reports
 * just before each garbage collection, which happens inside those stretches, counts too.
 */
export class HeapWatch {
	private readonly profiler = new GCProfiler();

	private readonly timer: NodeJS.Timeout;

	private readonly baselineBytes: number;

	private peakBytes: number;

	constructor(sampleEveryMs = 5) {
		collectGarbage();
		this.baselineBytes = process.memoryUsage().heapUsed;
		this.peakBytes = this.baselineBytes;
		this.profiler.start();
		this.timer = setInterval(() => this.sample(), sampleEveryMs);
	}

	private sample(): void {
		this.peakBytes = Math.max(this.peakBytes, process.memoryUsage().heapUsed);
	}

	stop(): HeapReport {
		clearInterval(this.timer);
		this.sample();
		const profile = this.profiler.stop();
		for (const entry of profile?.statistics ?? []) {
			this.peakBytes = Math.max(this.peakBytes, entry.beforeGC.heapStatistics.usedHeapSize);
		}
		return {
			baselineBytes: this.baselineBytes,
			peakBytes: this.peakBytes,
			growthBytes: this.peakBytes - this.baselineBytes,
		};
	}
}

export const MB = 1024 * 1024;

export function toMB(bytes: number): number {
	return Math.round((bytes / MB) * 10) / 10;
}
