// A campaign operation (Send or Schedule): its fields, and the pipeline it runs.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { campaignProperties } from './fields';
import { beginCampaignRun } from './pipeline/campaignRun';
import { readParameters } from './pipeline/readParameters';
import { type CampaignOperation, runCampaigns } from './pipeline/run';
import type { Listing } from '../../resourceFields';

/** How the Operation picker lists each. */
const LISTINGS: Record<CampaignOperation, Listing> = {
	send: [
		'Send',
		'Send a campaign now',
		'Send a campaign',
		'docs/campaigns.md#campaign-send-and-schedule',
	],
	schedule: [
		'Schedule',
		'Schedule a campaign for a later time',
		'Schedule a campaign',
		'docs/campaigns.md#campaign-send-and-schedule',
	],
};

export function campaignOperation(operation: CampaignOperation) {
	return {
		description: campaignProperties(operation),
		listing: LISTINGS[operation],
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
