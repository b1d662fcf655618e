import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { campaignDescription, schedule, send } from './resources/campaign';
import { legacyMessageDescription, send as legacySend } from './resources/legacyMessage';
import { getAll, senderDescription } from './resources/sender';
import { fetchSenders, senderTypeLabel } from './resources/sender/senders';
import { checkHealth, serviceDescription } from './resources/service';

type PerItem = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

/** Operations that run once per input item; campaigns run over all items at once. */
const PER_ITEM: Record<string, PerItem> = {
	'sender.getAll': getAll.run,
	'service.checkHealth': checkHealth.run,
	'legacyMessage.send': legacySend.run,
};

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
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		if (resource === 'campaign') {
			return operation === 'schedule' ? await schedule.run.call(this) : await send.run.call(this);
		}

		const run = PER_ITEM[`${resource}.${operation}`];
		if (!run) {
			throw new NodeOperationError(this.getNode(), `Unsupported operation "${operation}" for resource "${resource}"`);
		}
		const out: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				out.push(...(await run.call(this, itemIndex)));
			} catch (error) {
				if (!this.continueOnFail()) {
					throw error instanceof NodeApiError || error instanceof NodeOperationError
						? error
						: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
				}
				out.push({ json: { error: (error as Error).message }, pairedItem: { item: itemIndex } });
			}
		}
		return [out];
	}
}
