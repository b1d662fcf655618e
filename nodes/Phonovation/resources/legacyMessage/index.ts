import type { INodeProperties } from 'n8n-workflow';

import * as send from './send';

export const operations = { send };

export const legacyMessageDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['legacyMessage'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				description: 'Send one message through the legacy API (needs the API ID)',
				action: 'Send a legacy message',
			},
		],
		default: 'send',
	},
	...send.description,
];
