// A campaign operation (Send or Schedule): its fields, and the pipeline it runs.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { campaignProperties } from './fields';
import { beginCampaignRun } from './pipeline/campaignRun';
import { readParameters } from './pipeline/readParameters';
import { type CampaignOperation, runCampaigns } from './pipeline/run';

export function campaignOperation(operation: CampaignOperation) {
	return {
		description: campaignProperties(operation),
		async execute(
			this: IExecuteFunctions,
			items: INodeExecutionData[],
		): Promise<INodeExecutionData[]> {
			const run = beginCampaignRun(this);
			const requests = readParameters(this, items, operation === 'schedule');
			return await runCampaigns(this, requests, operation, run);
		},
	};
}
