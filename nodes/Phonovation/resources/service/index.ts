import type { INodeProperties } from 'n8n-workflow';

import * as checkHealth from './checkHealth';

export const operations = { checkHealth };

export const serviceDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['service'] } },
		options: [
			{
				name: 'Check Health',
				value: 'checkHealth',
				description: "Check that the provider's API is up",
				action: 'Check service health',
			},
		],
		default: 'checkHealth',
	},
	...checkHealth.description,
];
