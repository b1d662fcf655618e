import type { INodeProperties } from 'n8n-workflow';

import * as deliverReply from './deliverReply';
import * as sendAndWait from './sendAndWait';

export const operations = { sendAndWait, deliverReply };

export const conversationDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['conversation'] } },
		options: [
			{
				name: 'Deliver Reply',
				value: 'deliverReply',
				description: 'Hand a verified reply to the run that asked the question',
				action: 'Deliver a reply to a waiting run',
			},
			{
				name: 'Send and Wait for Reply',
				value: 'sendAndWait',
				description: 'Text a question and pause until the answer comes back',
				action: 'Send a text and wait for the reply',
			},
		],
		default: 'sendAndWait',
	},
	...sendAndWait.description,
	...deliverReply.description,
];
