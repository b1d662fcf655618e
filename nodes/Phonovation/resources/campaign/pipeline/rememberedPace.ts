// Where the remembered pace lives: this n8n process's memory, per workflow and provider account.
import type { IExecuteFunctions } from 'n8n-workflow';

import { CREDENTIAL } from '../../../transport/request';
import type { PaceLearned, PaceStart } from './pacer';
import { PaceBook } from './paceMemory';

/**
 * The remembered pace (paceMemory.ts says what is kept) lives in this n8n process's memory, per
 * workflow and provider account, never in the workflow's static data: n8n saves a workflow's whole
 * static data after any execution in which a node changed it, from that execution's copy, which
 * is empty on a Retry or a resumed run and stale when executions overlap. Writing a hint there
 * could wipe or roll back another node's state (a trigger's schedule, a list of who was texted).
 * A restart or another queue-mode worker starts as a first run does.
 */
const PACES = new PaceBook();

function key(ctx: IExecuteFunctions, campaignUrl: string): string {
	const credential = ctx.getNode().credentials?.[CREDENTIAL];
	return [ctx.getWorkflow().id ?? '', credential?.id ?? credential?.name ?? '', campaignUrl].join(
		'\n',
	);
}

/** Where this run starts, from what an earlier run of this workflow on this account learned. */
export function loadPace(
	ctx: IExecuteFunctions,
	campaignUrl: string,
	now: number,
): PaceStart | undefined {
	return PACES.startFor(key(ctx, campaignUrl), now);
}

/** Keeps what this run learned for the next. */
export function savePace(
	ctx: IExecuteFunctions,
	campaignUrl: string,
	learned: PaceLearned,
	now: number,
): void {
	PACES.learn(key(ctx, campaignUrl), learned, now);
}
