// Verify Relay: its fields, and its run: what n8n's Webhook node received, checked and read as the trigger would.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../eachItem';
import { refuseAsAiTool } from '../../toolUse';
import type { Listing } from '../../resourceFields';
import { optionsCollection } from '../../../shared/optionsCollection';
import { asText } from '../../../shared/values';
import type { RelayEvent } from '../../../PhonovationTrigger/events';
import { handleRelay, type TriggerSettings } from '../../../PhonovationTrigger/handler';
import {
	declaredTooLarge,
	type RelayHttpRequest,
} from '../../../PhonovationTrigger/incoming/readBody';
import { RelayRejection } from '../../../PhonovationTrigger/incoming/rejection';
import type { TriggerOptions } from '../../../PhonovationTrigger/parameters';
import {
	relayEventFields,
	relayOptionFields,
	relaySettingsOf,
} from '../../../PhonovationTrigger/relayFields';
import type { TriggerSecrets } from '../../../PhonovationTrigger/verification/secrets';
import { operationFields } from './fields';

/** Relay: each relay taken, as the Phonovation Trigger puts it out. Not Taken: refused or not selected, with why. */
export const outputNames = ['Relay', 'Not Taken'] as const;

/** The binary field n8n's Webhook node puts the exact bytes in (its Raw Body option). */
const RAW_BODY = 'data';

export const description = operationFields('verifyRelay', [
	{
		displayName:
			"Put n8n's Webhook node (POST, Respond Immediately, option Raw Body on) before this node, and give its Production URL to Phonovation. n8n answers the provider without waiting for an expression isolate, as it must for a trigger; this node then checks each relay against the credential and puts it out as the Phonovation Trigger would.",
		name: 'verifyRelayNotice',
		type: 'notice',
		default: '',
	},
	...relayEventFields('Which relays go out on Relay; the others go out on Not Taken'),
	optionsCollection(relayOptionFields({ refused: 'put out on Not Taken' })),
] satisfies INodeProperties[]);

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** The request n8n's Webhook node received, as the trigger reads its own: headers, exact bytes, parsed body. */
async function requestOf(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
): Promise<{ request: RelayHttpRequest; queryToken: unknown }> {
	const { headers, query, body } = item.json;
	if (!isObject(headers))
		throw new NodeOperationError(
			ctx.getNode(),
			`Verify Relay: item ${itemIndex} is not what n8n's Webhook node puts out (it has no headers); connect this node straight after the Webhook node that receives the relays`,
			{ itemIndex },
		);
	// Past 64 KiB by its own Content-Length, the body is refused unread (readRelayBody), not loaded.
	const rawBody =
		item.binary?.[RAW_BODY] && !declaredTooLarge(headers['content-length'])
			? await ctx.helpers.getBinaryDataBuffer(itemIndex, RAW_BODY)
			: undefined;
	return {
		request: { headers: headers as RelayHttpRequest['headers'], rawBody, body },
		queryToken: isObject(query) ? query.token : undefined,
	};
}

/** The credential's Relay Secret and URL Token, read once per run and only when a relay needs them. */
function secretsOnce(ctx: IExecuteFunctions): () => Promise<TriggerSecrets> {
	let loaded: Promise<TriggerSecrets> | undefined;
	const load = async (): Promise<TriggerSecrets> => {
		let credential;
		try {
			credential = await ctx.getCredentials('phonovationApi');
		} catch (error) {
			// n8n's message (credential not found, not decryptable) never holds the secrets.
			throw new NodeOperationError(
				ctx.getNode(),
				`Verify Relay: the Phonovation credential could not be read (${(error as Error).message}); no relay can be checked`,
			);
		}
		const text = (value: unknown) => asText(value) || undefined;
		return { relaySecret: text(credential.relaySecret), urlToken: text(credential.urlToken) };
	};
	return async () => await (loaded ??= load());
}

/** What one received request becomes: an item on Relay, or why not on Not Taken. */
async function verified(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	{ settings, secrets }: { settings: TriggerSettings; secrets: () => Promise<TriggerSecrets> },
): Promise<{ relay: IDataObject } | { notTaken: IDataObject }> {
	// This n8n's clock when the run reads the relay: Collect Burst orders a turn's texts by it.
	const arrivedAt = new Date().toISOString();
	const { request, queryToken } = await requestOf(ctx, item, itemIndex);
	try {
		const outcome = await handleRelay(request, settings, { queryToken, secrets });
		if ('ignored' in outcome) return { notTaken: { ignored: outcome.ignored } };
		return { relay: { ...outcome.item, arrivedAt } };
	} catch (error) {
		if (error instanceof NodeOperationError) throw asNodeError(ctx, error, itemIndex);
		if (!(error instanceof RelayRejection))
			return { notTaken: { refused: 400, reason: 'not a relay this node can read' } };
		// Without a Relay Secret no relay can pass: the owner must set it, so the run fails saying so.
		// A processing result without a URL Token set is refused like a stranger's JSON: a stranger
		// must not be able to fail the inbox's runs (processing results come only with the V2 API).
		if (error.source === 'configuration' && (await secrets()).relaySecret === undefined)
			throw new NodeOperationError(ctx.getNode(), `Verify Relay: ${error.detail}`, { itemIndex });
		// The reason names our own fields, never what the request held.
		return { notTaken: { refused: error.status, reason: error.detail } };
	}
}

/**
 * Checks each request n8n's Webhook node received as the Phonovation Trigger checks its own (the
 * signature or URL token against the credential, the body within 64 KiB), and puts it out as the
 * trigger's item on Relay; a refused or unselected relay goes out on Not Taken with why, never
 * with what it held.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	refuseAsAiTool(this, 'Verify Relay', 'it reads what the Webhook node received');
	const events = this.getNodeParameter('events', 0, []) as RelayEvent[];
	const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
	const context = { settings: relaySettingsOf(events, options), secrets: secretsOnce(this) };
	const [relays, notTaken]: INodeExecutionData[][] = [[], []];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const pairedItem = { item: itemIndex };
		try {
			const outcome = await verified(this, items[itemIndex], itemIndex, context);
			if ('relay' in outcome) relays.push({ json: outcome.relay, pairedItem });
			else notTaken.push({ json: outcome.notTaken, pairedItem });
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error, itemIndex);
			notTaken.push({ json: { error: (error as Error).message }, pairedItem });
		}
	}
	return [relays, notTaken];
}

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Verify Relay',
	"Check a relay n8n's Webhook node received and put it out as a reply, opt-out, opt-in, receipt or processing result",
	'Verify a relay received by a webhook node',
	'docs/conversations.md#the-relay-url',
];
