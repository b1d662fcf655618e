/**
 * Counting and reading many executions through n8n's REST API (the editor's executions list):
 * its filter takes workflowId and status, and pages of up to 100 are chained by a cursor.
 */
import { ExecutionStatusList } from 'n8n-workflow';

import type { Execution, ExecutionSummary, N8nClient } from './n8n-client';

/** Every status an execution can have, running and waiting ones included. */
export const EVERY_STATUS: string[] = [...ExecutionStatusList];

export interface ExecutionFilter {
	workflowId?: string;
	/** e.g. ['success']; when omitted, n8n counts only finished ones (use EVERY_STATUS for all). */
	status?: string[];
	/** ISO time; n8n keeps executions started at or before it. */
	startedBefore?: string;
}

interface ExecutionPage {
	count: number;
	results: ExecutionSummary[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function query(filter: ExecutionFilter, limit: number): string {
	const params = new URLSearchParams({ filter: JSON.stringify(filter), limit: String(limit) });
	return `/rest/executions?${params.toString()}`;
}

/** How many executions match (n8n counts them in the database, not per page). */
export async function countExecutions(
	client: N8nClient,
	filter: ExecutionFilter = {},
): Promise<number> {
	const page = await client.call<ExecutionPage>('GET', query(filter, 1));
	return page.count;
}

/**
 * Every matching execution's summary, newest first. n8n orders the list by start time but its
 * page cursor continues below the last row's id, which skips executions that started out of id
 * order (queue mode with several workers). So the pages are chained by start time instead:
 * `startedBefore` includes its bound, and rows seen twice are kept once.
 */
export async function listExecutions(
	client: N8nClient,
	filter: ExecutionFilter = {},
): Promise<ExecutionSummary[]> {
	const all = new Map<string, ExecutionSummary>();
	let startedBefore: string | undefined;
	for (;;) {
		const page = await client.call<ExecutionPage>('GET', query({ ...filter, startedBefore }, 100));
		for (const execution of page.results) all.set(String(execution.id), execution);
		const started = page.results
			.map((e) => e.startedAt)
			.filter((t): t is string => Boolean(t))
			.sort();
		if (page.results.length < 100 || started.length === 0) break;
		if (started[0] === startedBefore)
			throw new Error(`More than 100 executions started at ${startedBefore}`);
		startedBefore = started[0];
	}
	return [...all.values()];
}

/**
 * Polls until `count` matching executions exist; returns the last count seen, which is larger
 * when more arrived, or smaller when the deadline passed first.
 */
export async function waitForExecutionCount(
	client: N8nClient,
	filter: ExecutionFilter,
	count: number,
	timeoutMs: number,
	onProgress?: (seen: number) => void,
): Promise<number> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const seen = await countExecutions(client, filter);
		onProgress?.(seen);
		if (seen >= count || Date.now() > deadline) return seen;
		await sleep(1000);
	}
}

/** The execution created last (n8n numbers executions in the order it creates them). */
export function newestExecution(summaries: ExecutionSummary[]): ExecutionSummary | undefined {
	return [...summaries].sort((a, b) => Number(b.id) - Number(a.id))[0];
}

/**
 * For a test that sends its requests, then one final marker request whose execution it can
 * recognise: polls until `count` executions (the marker's included) have `status`, and returns
 * every execution of the workflow in any status. Because the marker was sent after every other
 * request was answered, its execution must be the newest: one created later would show up as
 * newer, and one created earlier as a surplus in the total. Both are for the caller to assert.
 */
export async function executionsUpToMarker(
	client: N8nClient,
	workflowId: string,
	count: number,
	options: { status?: string[]; timeoutMs: number },
): Promise<ExecutionSummary[]> {
	const seen = await waitForExecutionCount(
		client,
		{ workflowId, status: options.status ?? ['success'] },
		count,
		options.timeoutMs,
	);
	if (seen < count)
		throw new Error(`only ${seen} of ${count} executions within ${options.timeoutMs / 1000} s`);
	return await listExecutions(client, { workflowId, status: EVERY_STATUS });
}

/** Loads the stored executions (with their run data), `concurrency` requests at a time. */
export async function fetchExecutions(
	client: N8nClient,
	ids: string[],
	concurrency = 8,
): Promise<Execution[]> {
	const executions: Execution[] = new Array(ids.length);
	let next = 0;
	const worker = async () => {
		while (next < ids.length) {
			const index = next++;
			executions[index] = await client.execution(ids[index]);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
	return executions;
}

/** The raw JSON n8n serves for one execution (run data still in its flatted string). */
export async function rawExecutionText(client: N8nClient, id: string): Promise<string> {
	return JSON.stringify(await client.call('GET', `/rest/executions/${id}`));
}
