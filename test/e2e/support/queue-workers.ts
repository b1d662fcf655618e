/** Which n8n worker ran which execution, read from the workers' own logs (n8n's scaling logger, level info). */
import { pollUntil } from './poll';
import type { QueueProcess } from './queue-n8n';

const STARTED = /Worker started execution (\d+)\b/g;

/** The ids of the executions this worker started, from its log so far. */
export function executionsStartedBy(worker: QueueProcess): Set<string> {
	return new Set([...worker.log().matchAll(STARTED)].map((match) => match[1]));
}

/** How many of these executions each worker started, by worker name. */
export function executionsPerWorker(
	workers: QueueProcess[],
	ids: string[],
): Record<string, number> {
	const perWorker: Record<string, number> = {};
	for (const worker of workers) {
		const started = executionsStartedBy(worker);
		perWorker[worker.name] = ids.filter((id) => started.has(id)).length;
	}
	return perWorker;
}

/** Polls the workers' logs until one of them has started the execution. */
export async function workerRunning(
	workers: QueueProcess[],
	executionId: string,
	timeoutMs: number,
): Promise<QueueProcess> {
	const probe = () => workers.find((w) => executionsStartedBy(w).has(executionId));
	return await pollUntil(probe, `a worker starting execution ${executionId}`, timeoutMs);
}
