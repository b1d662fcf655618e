// The start of every run that posts a text: this node's run in the execution, past the Retry guard.
import type { IExecuteFunctions } from 'n8n-workflow';

import { refuseBlindRetry } from '../../../retriedBlind';
import { nodeMemory } from '../../../runMemory';
import { Ledger } from './ledger';

/** This node's run in the execution and its retry record, begun once per run by its operation. */
export interface CampaignRun {
	readonly index: number;
	readonly ledger: Ledger;
}

/**
 * Begins the run's retry record before anything is read or checked: a run that stops on a mistake
 * leaves a record that nothing was sent, so a Retry of the execution after the fix sends once. A
 * Retry finding no record is refused (retriedBlind.ts): the run may have sent before it stopped.
 */
export function beginCampaignRun(ctx: IExecuteFunctions): CampaignRun {
	const index = ctx.getWorkflowDataProxy(0).$runIndex;
	const ledger = new Ledger(nodeMemory(ctx), index);
	refuseBlindRetry(ctx, ledger.started, index);
	return { index, ledger };
}
