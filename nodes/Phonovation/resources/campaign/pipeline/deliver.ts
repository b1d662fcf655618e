import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, apiUrl } from '../../../transport/request';
import type { CampaignPlan } from './plan';
import { batchLabel, CAMPAIGN_PATH, requestBody } from './requestBody';

/** The provider's CampaignResponse (service spec §2.3). */
export interface CampaignResponse {
	success?: boolean;
	message?: string | null;
	errors?: string[] | null;
}

/** What became of one batch. A batch after a failed one is never attempted. */
export type BatchOutcome =
	| { state: 'accepted'; response: CampaignResponse }
	| { state: 'failed'; failure: Error }
	| { state: 'not attempted' }
	| { state: 'dry run' };

export interface Delivery {
	/** One outcome per batch of the plan, in order. */
	batches: BatchOutcome[];
	/** The failure that stopped the campaign, and the batch it happened on. */
	failure?: { error: Error; batch: number };
	/** Campaign requests posted. */
	requests: number;
	/** A dry run's requests, exactly as they would have been posted. */
	dryRunRequests?: IDataObject[];
}

async function dryRun(ctx: IExecuteFunctions, plan: CampaignPlan): Promise<Delivery> {
	const url = await apiUrl(ctx, CAMPAIGN_PATH);
	return {
		batches: plan.batches.map(() => ({ state: 'dry run' })),
		requests: 0,
		dryRunRequests: plan.batches.map((batch) => ({
			method: 'POST',
			url,
			body: JSON.parse(requestBody(plan.settings, batch).toString('utf8')) as IDataObject,
		})),
	};
}

/** Posts one batch; anything but `success: true` is a failure. */
async function postBatch(ctx: IExecuteFunctions, plan: CampaignPlan, index: number): Promise<BatchOutcome> {
	const where = batchLabel(index, plan.batches.length);
	const itemIndex = plan.items[0].itemIndex;
	let response: CampaignResponse | undefined;
	try {
		response = await apiRequest<CampaignResponse>(
			ctx,
			{
				method: 'POST',
				path: CAMPAIGN_PATH,
				body: requestBody(plan.settings, plan.batches[index]),
				timeoutMs: plan.settings.timeoutMs,
				itemIndex,
			},
			`the campaign${where}`,
		);
	} catch (error) {
		return { state: 'failed', failure: error as Error };
	}
	if (response?.success === true) return { state: 'accepted', response };
	const said = [response?.message, ...(response?.errors ?? [])].filter(Boolean).join('; ');
	const failure = new NodeOperationError(
		ctx.getNode(),
		`Phonovation did not accept the campaign${where}: ${said || 'success was not true'}`,
		{ itemIndex },
	);
	return { state: 'failed', failure };
}

/** Sends a campaign's batches in order; the first failure stops the rest. */
export async function deliver(ctx: IExecuteFunctions, plan: CampaignPlan): Promise<Delivery> {
	if (plan.settings.dryRun) return await dryRun(ctx, plan);
	const delivery: Delivery = { batches: plan.batches.map(() => ({ state: 'not attempted' })), requests: 0 };
	for (let index = 0; index < plan.batches.length; index++) {
		delivery.requests++;
		const outcome = await postBatch(ctx, plan, index);
		delivery.batches[index] = outcome;
		if (outcome.state === 'failed') {
			delivery.failure = { error: outcome.failure, batch: index };
			break;
		}
	}
	return delivery;
}
