import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { campaignProperties } from './fields';
import { runCampaigns } from './pipeline/run';

export const description = campaignProperties('send');

/** `POST /api/v2/Campaign` without `sendAt`: the provider sends at once. */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runCampaigns(this, items, 'send');
}
