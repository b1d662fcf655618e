// What Deliver Reply and Deliver Receipt share: each trigger item checked, then handed over with the secret.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { eachItem } from '../../eachItem';
import { asText } from '../../../shared/values';
import { relaySecretOf } from './proof/relaySecret';
import { waitingBaseOf } from './waitingRuns';
import { refuseAsAiTool } from '../../toolUse';

/** A trigger item handed over in a JSON parameter (n8n may hand it over as text). */
export function itemOfParameter(value: unknown): IDataObject {
	if (typeof value === 'string') {
		try {
			return (JSON.parse(value) ?? {}) as IDataObject;
		} catch {
			return {};
		}
	}
	return value && typeof value === 'object' ? (value as IDataObject) : {};
}

/**
 * What a Deliver operation takes: the trigger's item of which events. `label` names the rest: the
 * operation (`Deliver <label>`), its parameter (`<label>` in lower case) and the trigger node
 * in the example expression of an error (`On <label>`).
 */
export interface Handing {
	label: 'Reply' | 'Receipt';
	/** Why no AI agent may use it. */
	notATool: string;
	/** The trigger events it takes, and their names in the trigger. */
	events: Record<string, string>;
}

/** The field holding the trigger's item: the input item by default. */
export const triggerItemField = (
	label: Handing['label'],
	description: string,
): INodeProperties => ({
	displayName: label,
	name: label.toLowerCase(),
	type: 'json',
	required: true,
	default: '={{ $json }}',
	description,
});

export interface Handed {
	itemIndex: number;
	/** The trigger's item. */
	item: IDataObject;
	/** The item going on, with what became of it. */
	out(result: IDataObject): INodeExecutionData[];
	secret: string;
	/**
	 * The Relay Secret, once a proof is about to be made: without it no waiting run can check what
	 * it is given, so the item fails saying so rather than being refused as "no valid proof".
	 */
	requireSecret(): void;
	/** This n8n's waiting-webhook address: a row pointing anywhere else gets neither item nor proof. */
	waitingBase: string;
}

/** The error of an item that has no Relay Secret to prove with. */
function noSecret(ctx: IExecuteFunctions, itemIndex: number, operation: string) {
	return new NodeOperationError(
		ctx.getNode(),
		`Credential: set a Relay Secret; ${operation} proves with it what it hands to a waiting run`,
		{
			itemIndex,
			description:
				'Set Relay Secret in the Phonovation credential: the same credential as the Send and Wait node and the trigger.',
		},
	);
}

/** The trigger's item at this index, if it is one of the events taken; an error naming the field otherwise. */
function triggerItem(ctx: IExecuteFunctions, itemIndex: number, handing: Handing): IDataObject {
	const { label, events } = handing;
	const item = itemOfParameter(ctx.getNodeParameter(label.toLowerCase(), itemIndex, {}));
	const event = asText(item.event);
	if (Object.hasOwn(events, event)) return item;
	const names = Object.values(events).join(' or ');
	throw new NodeOperationError(
		ctx.getNode(),
		`${label}: item ${itemIndex} is not a Phonovation Trigger ${names} item (event "${event}"); set ${label} to the trigger's item, e.g. {{ $('On ${label}').item.json }}`,
		{ itemIndex },
	);
}

/**
 * A Deliver operation's execute: never an AI Agent's tool (an agent must not make up what a person
 * or the provider said), each input item's trigger item checked to be one of the events taken
 * (an error naming the field and the item otherwise), handed to `deliver` with the Relay Secret.
 */
export function deliverOperation(
	handing: Handing,
	deliver: (ctx: IExecuteFunctions, handed: Handed) => Promise<INodeExecutionData[]>,
) {
	const operation = `Deliver ${handing.label}`;
	return async function execute(
		this: IExecuteFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		refuseAsAiTool(this, operation, handing.notATool);
		const secret = await relaySecretOf(this);
		const waitingBase = waitingBaseOf(this);
		return await eachItem(this, items, async (itemIndex) => {
			const item = triggerItem(this, itemIndex, handing);
			const out = (result: IDataObject): INodeExecutionData[] => [
				{ json: { ...item, ...result }, pairedItem: { item: itemIndex } },
			];
			const requireSecret = () => {
				if (secret === '') throw noSecret(this, itemIndex, operation);
			};
			return await deliver(this, { itemIndex, item, out, secret, requireSecret, waitingBase });
		});
	};
}
