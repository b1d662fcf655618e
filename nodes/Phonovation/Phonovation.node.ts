// The Phonovation action node: its resources, the Sender list, the resume webhook and each run.
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { campaignDescription } from './resources/campaign';
import {
	burstOutputNames as burstOutputs,
	conversationDescription,
	deliveryOutputNames as deliveryOutputs,
	relayOutputNames as relayOutputs,
	resume,
} from './resources/conversation';
import { legacyMessageDescription } from './resources/legacyMessage';
import { senderDescription } from './resources/sender';
import { getSenders, searchSenders } from './resources/sender/senderField';
import { serviceDescription } from './resources/service';
import { asNodeError } from './eachItem';
import { placeholderNotices } from './placeholders';
import { errorItemFor, refusePlaceholders, selectedOperation } from './router';

/**
 * Send and Wait for Reply and for Delivery resume at webhook(), at a URL ending in the waiting
 * node's id: for a reply the node's own signed URL (`getSignedResumeUrl`); for a receipt the run's
 * resume token with the node's id (n8n checks node-signed URLs only for `sendAndWait`), kept sealed
 * in the Question Log. The run's token passes n8n's check at either, so the proof decides. A
 * restart webhook, served by n8n itself while the run waits: nothing is registered with the
 * provider, so no webhookMethods to manage.
 */
const RESUME_WEBHOOKS: INodeTypeDescription['webhooks'] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	},
];

/** Outputs with names, as the node's outputs expression lists them. */
const namedOutputs = (names: readonly string[]) =>
	JSON.stringify(names.map((displayName) => ({ type: NodeConnectionTypes.Main, displayName })));

export class Phonovation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Phonovation',
		name: 'phonovation',
		icon: {
			light: 'file:../../icons/phonovation.svg',
			dark: 'file:../../icons/phonovation.dark.svg',
		},
		group: ['output'],
		// 2: Sender is a list filled when opened, so a new node's first open lists the senders.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Send and schedule SMS campaigns, text a question and wait for the answer or the delivery, and list sender IDs with Phonovation InteractSMS',
		// A full URL is linked as is: to the codex's link n8n appends ?utm_… after its #anchor.
		documentationUrl: 'https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation#operations',
		defaults: { name: 'Phonovation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		// Send and Wait for Delivery branches on its receipt, Collect Burst on whether a turn came of
		// the text, Verify Relay on whether the relay was taken; every other operation has one output.
		outputs: `={{ $parameter.resource !== 'conversation' ? ['${NodeConnectionTypes.Main}'] : $parameter.operation === 'sendAndWaitForDelivery' ? ${namedOutputs(
			deliveryOutputs,
		)} : $parameter.operation === 'collectBurst' ? ${namedOutputs(burstOutputs)} : $parameter.operation === 'verifyRelay' ? ${namedOutputs(relayOutputs)} : ['${NodeConnectionTypes.Main}'] }}`,
		credentials: [{ name: 'phonovationApi', required: true }],
		webhooks: RESUME_WEBHOOKS,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Campaign', value: 'campaign' },
					{ name: 'Conversation', value: 'conversation' },
					{ name: 'Legacy Message', value: 'legacyMessage' },
					{ name: 'Sender ID', value: 'sender' },
					{ name: 'Service', value: 'service' },
				],
				default: 'campaign',
			},
			...placeholderNotices,
			...campaignDescription,
			...conversationDescription,
			...senderDescription,
			...serviceDescription,
			...legacyMessageDescription,
		],
	};

	methods = {
		loadOptions: { getSenders },
		listSearch: { searchSenders },
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resume.call(this);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		let outputs: readonly string[] | undefined;
		try {
			const operation = selectedOperation.call(this);
			outputs = operation.outputNames;
			refusePlaceholders.call(this, operation);
			const out = await operation.execute.call(this, items);
			return outputs ? (out as INodeExecutionData[][]) : [out as INodeExecutionData[]];
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error);
			const failed = items.map((_, itemIndex) => errorItemFor(error, itemIndex));
			return outputs ? outputs.map((_, i) => (i === outputs!.length - 1 ? failed : [])) : [failed];
		}
	}
}
