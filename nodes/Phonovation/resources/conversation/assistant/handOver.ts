// Hand Over: its fields, and its run: a conversation handed to a person (the assistant stays quiet) or back.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asText, withinBounds } from '../../../../shared/values';
import { asNodeError } from '../../../eachItem';
import { operationFields } from '../fields';
import { readNumber } from '../numbers';
import { questionLogField } from '../questionLog';
import { type HandedBy, HANDOVER_HOURS, handoverRow } from './handoverState';
import { logOnce, runOf } from './messageLog';
import { messageId } from './messages';
import { runsAsAiTool } from '../../../toolUse';
import type { Listing } from '../../../resourceFields';

export const description = operationFields('handOver', [
	{
		...questionLogField,
		description:
			'The inbox workflow (imported once and published): it keeps the hand-over in its `messages` Data Table, where Collect Burst and Reply read it',
	},
	{
		displayName: 'Action',
		name: 'handOverAction',
		type: 'options',
		options: [
			{
				name: 'Hand Over to a Person',
				value: 'handOver',
				description:
					"The assistant stops answering this number: Collect Burst puts the person's texts out on Handed Over, and Reply sends only Staff Replies",
			},
			{
				name: 'Hand Back to the Assistant',
				value: 'handBack',
				description: 'The assistant answers this number again',
			},
		],
		default: 'handOver',
	},
	{
		displayName: 'Person',
		name: 'recipients',
		type: 'string',
		required: true,
		default: '={{ $json.from }}',
		description:
			'The number of the person whose conversation it is (the trigger and Collect Burst give it as from)',
	},
	{
		displayName: 'From Longcode',
		name: 'textedNumber',
		type: 'string',
		default: '={{ $json.unverified?.to ?? "" }}',
		description: 'The longcode the person texted: staff replies go from it',
		displayOptions: { show: { handOverAction: ['handOver'] } },
	},
	{
		displayName: 'For (Hours)',
		name: 'handOverHours',
		type: 'number',
		typeOptions: { minValue: HANDOVER_HOURS.min, maxValue: HANDOVER_HOURS.max },
		default: 24,
		description: 'How long the assistant stays quiet unless staff hand back first (1–24 hours)',
		displayOptions: { show: { handOverAction: ['handOver'] } },
	},
	{
		displayName: 'Answers',
		name: 'answers',
		type: 'string',
		default: '={{ $json.turn ?? "" }}',
		description:
			"The turn being answered when the hand-over is made (an AI Agent's tool call): the assistant's reply to that turn still goes, so it can say a person will text. Empty: none.",
		displayOptions: { show: { handOverAction: ['handOver'] } },
	},
] satisfies INodeProperties[]);

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Hand Over',
	'Hand a conversation to a person (the assistant stays quiet) or back to the assistant',
	'Hand a conversation over or back',
	'docs/conversations.md#hand-over-to-a-person',
];

/** One item's hand-over (or back), logged once whatever the retries. */
async function handedOver(
	ctx: IExecuteFunctions,
	itemIndex: number,
	by: HandedBy,
): Promise<IDataObject> {
	const back = ctx.getNodeParameter('handOverAction', itemIndex, 'handOver') === 'handBack';
	const written = asText(ctx.getNodeParameter('recipients', itemIndex, '')).trim();
	const phone = readNumber(written);
	if (phone === null)
		throw new NodeOperationError(ctx.getNode(), `Person: item ${itemIndex} is no phone number`, {
			itemIndex,
		});
	const at = new Date().toISOString();
	const until = back
		? at
		: new Date(
				Date.parse(at) +
					withinBounds(ctx.getNodeParameter('handOverHours', itemIndex, 24), HANDOVER_HOURS) *
						3_600_000,
			).toISOString();
	const row = handoverRow(
		{
			phone,
			at,
			id: messageId('handover', { ...runOf(ctx), nodeId: ctx.getNode().id }, itemIndex),
		},
		{
			until,
			longcode: back
				? ''
				: asText(ctx.getNodeParameter('textedNumber', itemIndex, ''))
						.replace(/^\+/, '')
						.trim(),
			by,
			answers: back ? '' : asText(ctx.getNodeParameter('answers', itemIndex, '')).trim(),
		},
	);
	const { logged } = await logOnce(ctx, itemIndex, row, 'handoverLogged');
	// The time a retry logged first: the same answer under every retry.
	const loggedUntil = back ? logged.at : (JSON.parse(logged.text) as { until: string }).until;
	return { handedOver: !back, phone, until: loggedUntil, by };
}

/**
 * Hands each item's conversation to a person (until For hours pass or staff hand back) or back to
 * the assistant, in the inbox's log. As an AI Agent's tool, the agent decides (`by: agent`).
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const by: HandedBy = runsAsAiTool(this) ? 'agent' : 'staff';
	const out: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			out.push({ json: await handedOver(this, itemIndex, by), pairedItem: { item: itemIndex } });
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error, itemIndex);
			out.push({
				json: { error: error instanceof Error ? error.message : String(error) },
				pairedItem: { item: itemIndex },
			});
		}
	}
	return out;
}
