// A campaign operation (Send or Schedule): its fields, and the pipeline it runs.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { campaignProperties } from './fields';
import { type CampaignOperation, runCampaigns } from './pipeline/run';

export function campaignOperation(operation: CampaignOperation) {
	return {
		description: campaignProperties(operation),
		async execute(
			this: IExecuteFunctions,
			items: INodeExecutionData[],
		): Promise<INodeExecutionData[]> {
			return await runCampaigns(this, items, operation);
		},
	};
}
