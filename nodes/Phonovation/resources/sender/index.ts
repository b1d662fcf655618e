import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';

export const operations = { getAll };

export const senderDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['sender'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: "List the account's approved sender IDs",
				action: 'Get many senders',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
