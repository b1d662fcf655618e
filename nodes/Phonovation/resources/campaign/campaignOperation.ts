// A campaign operation (Send or Schedule): how the picker lists it, its fields, and the pipeline it runs.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Listed } from '../../resourceFields';
import { campaignProperties } from './fields';
import { type CampaignOperation, runCampaigns } from './pipeline/run';

export function campaignOperation(operation: CampaignOperation, listed: Listed) {
	return {
		listed,
		description: campaignProperties(operation),
		async execute(
			this: IExecuteFunctions,
			items: INodeExecutionData[],
		): Promise<INodeExecutionData[]> {
			return await runCampaigns(this, items, operation);
		},
	};
}
