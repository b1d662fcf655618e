// Conversation: its four operations, the Operation picker, and what the node takes from it besides.
import type { INodeProperties } from 'n8n-workflow';

import * as sendAndWait from './ask/sendAndWait';
import * as sendAndWaitForDelivery from './ask/sendAndWaitForDelivery';
import * as deliverReceipt from './deliverReceipt';
import * as deliverReply from './deliverReply';

export { outputNames as deliveryOutputNames } from './ask/deliveryOutputs';
export { resume } from './ask/resume';

export const operations = { sendAndWait, deliverReply, sendAndWaitForDelivery, deliverReceipt };

export const conversationDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['conversation'] } },
		options: [
			{
				name: 'Deliver Receipt',
				value: 'deliverReceipt',
				description: 'Hand a verified delivery receipt to the run waiting for it',
				action: 'Deliver a receipt to a waiting run',
			},
			{
				name: 'Deliver Reply',
				value: 'deliverReply',
				description: 'Hand a verified reply to the run that asked the question',
				action: 'Deliver a reply to a waiting run',
			},
			{
				name: 'Send and Wait for Delivery',
				value: 'sendAndWaitForDelivery',
				description:
					'Text one number and pause until its delivery receipt: go on at Delivered, Failed or No Receipt',
				action: 'Send a text and wait for its delivery',
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
	...sendAndWaitForDelivery.description,
	...deliverReceipt.description,
];
