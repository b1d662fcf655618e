import type { IExecuteFunctions } from 'n8n-workflow';

import { CREDENTIAL } from '../../../transport/request';
import type { PaceLearned, PaceStart } from './pacer';
import {
	accountKey,
	PACE_STATIC_KEY,
	paceToRemember,
	rememberedFor,
	startingPace,
	withPace,
} from './paceMemory';

/**
 * The remembered pace in the workflow's static data (paceMemory.ts says what is kept and why).
 * n8n saves static data after a production run (a trigger, a webhook, a schedule), not after a
 * manual one in the editor, so a manual run starts as a first run does.
 */
function account(ctx: IExecuteFunctions, campaignUrl: string): string {
	const credential = ctx.getNode().credentials?.[CREDENTIAL];
	return accountKey(credential?.id ?? credential?.name ?? '', campaignUrl);
}

/** Where this run starts, from what an earlier run of this workflow learned. */
export function loadPace(
	ctx: IExecuteFunctions,
	campaignUrl: string,
	now: number,
): PaceStart | undefined {
	const paces = ctx.getWorkflowStaticData('global')[PACE_STATIC_KEY];
	return startingPace(rememberedFor(paces, account(ctx, campaignUrl)), now);
}

/** Keeps what this run learned, when it says something new (each write rewrites static data). */
export function savePace(
	ctx: IExecuteFunctions,
	campaignUrl: string,
	learned: PaceLearned,
	now: number,
): void {
	if (learned.answers === 0) return;
	const data = ctx.getWorkflowStaticData('global');
	const key = account(ctx, campaignUrl);
	const pace = paceToRemember(rememberedFor(data[PACE_STATIC_KEY], key), learned, now);
	if (pace) data[PACE_STATIC_KEY] = withPace(data[PACE_STATIC_KEY], key, pace);
}

/** The pace is a hint: a failure to read or keep it changes nothing about what is sent. */
export function forgetPaceOnError<T>(work: () => T): T | undefined {
	try {
		return work();
	} catch {
		// Static data unavailable (a context without it): start and end as a first run does.
		return undefined;
	}
}
