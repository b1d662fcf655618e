import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runCampaigns } from './execute';

/** Send uses only the shared campaign fields. */
export const description: INodeProperties[] = [];

/** `POST /api/v2/Campaign` without `sendAt`: the provider sends at once. */
export async function run(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runCampaigns(this, false);
}
