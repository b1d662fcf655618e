import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { campaignProperties } from './fields';
import { runCampaigns } from './pipeline/run';

export const description = campaignProperties('schedule');

/** `POST /api/v2/Campaign` with `sendAt` in UTC (`yyyy-MM-ddTHH:mmZ`). */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runCampaigns(this, items, 'schedule');
}
