// Sender ID Get Many: its fields, and one output item per approved sender ID.
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { eachItem } from '../../eachItem';
import { fetchSenders, senderTypeLabel } from './senders';
import type { Listing } from '../../resourceFields';

const show = { show: { resource: ['sender'], operation: ['getAll'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		required: true,
		default: true,
		displayOptions: show,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		required: true,
		default: 50,
		displayOptions: { show: { ...show.show, returnAll: [false] } },
		description: 'Max number of results to return',
	},
];

/** One output item per approved sender ID: `{ name, type, typeLabel }`, for every input item. */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await eachItem(this, items, async (itemIndex) => {
		const senders = await fetchSenders(this);
		const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
		const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
		return (returnAll ? senders : senders.slice(0, limit)).map((s) => ({
			json: { name: s.name, type: s.type, typeLabel: senderTypeLabel(s.type) },
			pairedItem: { item: itemIndex },
		}));
	});
}

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Get Many',
	"List the account's approved sender IDs",
	'Get many senders',
	'docs/campaigns.md',
];
