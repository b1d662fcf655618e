import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runCampaigns } from './execute';
import { sendAtField } from './fields';

export const description: INodeProperties[] = [sendAtField];

/** `POST /api/v2/Campaign` with `sendAt` in UTC (`yyyy-MM-ddTHH:mmZ`). */
export async function run(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runCampaigns(this, true);
}
