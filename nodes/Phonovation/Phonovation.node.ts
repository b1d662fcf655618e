import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { campaignDescription } from './resources/campaign';
import { legacyMessageDescription } from './resources/legacyMessage';
import { senderDescription } from './resources/sender';
import { fetchSenders, senderTypeLabel } from './resources/sender/senders';
import { serviceDescription } from './resources/service';
import { route } from './router';

export class Phonovation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Phonovation',
		name: 'phonovation',
		icon: { light: 'file:../../icons/phonovation.svg', dark: 'file:../../icons/phonovation.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Send and schedule bulk SMS campaigns with Phonovation InteractSMS',
		defaults: { name: 'Phonovation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'phonovationApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Campaign', value: 'campaign' },
					{ name: 'Legacy Message', value: 'legacyMessage' },
					{ name: 'Sender ID', value: 'sender' },
					{ name: 'Service', value: 'service' },
				],
				default: 'campaign',
			},
			...campaignDescription,
			...senderDescription,
			...serviceDescription,
			...legacyMessageDescription,
		],
	};

	methods = {
		loadOptions: {
			/** Fills the Sender dropdown from the account's approved sender IDs. */
			async getSenders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const senders = await fetchSenders(this);
				return senders
					.map((s) => ({ name: `${s.name} (${senderTypeLabel(s.type)})`, value: s.name }))
					.sort((a, b) => a.name.localeCompare(b.name));
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
