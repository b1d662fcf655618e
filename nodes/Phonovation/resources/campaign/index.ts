import type { INodeProperties } from 'n8n-workflow';

import * as schedule from './schedule';
import * as send from './send';

export const operations = { schedule, send };

export const campaignDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['campaign'] } },
		options: [
			{
				name: 'Schedule',
				value: 'schedule',
				description: 'Schedule a campaign for a later time',
				action: 'Schedule a campaign',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Send a campaign now',
				action: 'Send a campaign',
			},
		],
		default: 'send',
	},
	...send.description,
	...schedule.description,
];
