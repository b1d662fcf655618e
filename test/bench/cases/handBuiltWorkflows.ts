import type { IConnections, INode, INodeParameters } from 'n8n-workflow';

import { BUILT_IN, type BuiltInName } from '../support/builtInNodes';

export interface BuiltWorkflow {
	nodes: INode[];
	connections: IConnections;
	/** The node the input items are handed to. */
	start: string;
}

export interface ProviderAccess {
	url: string;
	username: string;
	password: string;
}

export interface Message {
	from: string;
	text: string;
	/** For personalised texts: an expression over the item, e.g. `'Hi ' + $json.name`. */
	textExpression?: string;
}

function builtIn(
	kind: BuiltInName,
	name: string,
	parameters: INodeParameters,
	extra: Partial<INode> = {},
): INode {
	const { type, version } = BUILT_IN[kind];
	return {
		id: `node-${name}`,
		name,
		type,
		typeVersion: version,
		position: [0, 0],
		parameters,
		...extra,
	};
}

function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i + 1 < names.length; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

/** Edit Fields: one `{ msisdn, notifyId }` per input item, the national 0 turned into 353 by hand. */
function recipientFields(): INode {
	return builtIn('set', 'Edit Fields', {
		mode: 'manual',
		assignments: {
			assignments: [
				{
					id: 'msisdn',
					name: 'msisdn',
					value: "={{ $json.phone.replace(/^0/, '353') }}",
					type: 'string',
				},
				{ id: 'notifyId', name: 'notifyId', value: '={{ $json.ref }}', type: 'string' },
			],
		},
		includeOtherFields: false,
		options: {},
	});
}

/** HTTP Request posting the OAuth password grant, as the provider's docs show it. */
function tokenRequest(access: ProviderAccess, extra: Partial<INode> = {}): INode {
	return builtIn(
		'httpRequest',
		'Get token',
		{
			method: 'POST',
			url: `${access.url}/token`,
			sendBody: true,
			contentType: 'form-urlencoded',
			bodyParameters: {
				parameters: [
					{ name: 'grant_type', value: 'password' },
					{ name: 'client_id', value: 'ismstoken' },
					{ name: 'username', value: access.username },
					{ name: 'password', value: access.password },
				],
			},
			options: {},
		},
		extra,
	);
}

/**
 * HTTP Request posting a QueueCampaignRequest with the token as Bearer, JSON body typed in the
 * editor. `message.text` may be an expression (`={{ … }}` inside the body) for personalised texts.
 */
function campaignRequest(
	access: ProviderAccess,
	message: Message,
	recipientInfo: string,
	token: string,
	extra: Partial<INode> = {},
	options: INodeParameters = {},
): INode {
	return builtIn(
		'httpRequest',
		'Send campaign',
		{
			method: 'POST',
			url: `${access.url}/api/v2/Campaign`,
			sendHeaders: true,
			headerParameters: {
				parameters: [{ name: 'Authorization', value: `=Bearer {{ ${token} }}` }],
			},
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={\n  "from": ${JSON.stringify(message.from)},\n  "text": ${textOf(message)},\n  "recipientInfo": {{ JSON.stringify(${recipientInfo}) }}\n}`,
			options,
		},
		extra,
	);
}

/**
 * What a no-code user builds for a bulk campaign with n8n's own nodes: Edit Fields → Aggregate
 * (all item data into one list) → HTTP Request for the token → HTTP Request posting the campaign.
 */
export function handBuiltCampaign(access: ProviderAccess, message: Message): BuiltWorkflow {
	const fields = recipientFields();
	const aggregate = builtIn('aggregate', 'Aggregate', {
		aggregate: 'aggregateAllItemData',
		destinationFieldName: 'recipientInfo',
		include: 'allFields',
		options: {},
	});
	const token = tokenRequest(access);
	const send = campaignRequest(
		access,
		message,
		"$('Aggregate').item.json.recipientInfo",
		'$json.access_token',
	);
	return {
		nodes: [fields, aggregate, token, send],
		connections: chain(fields.name, aggregate.name, token.name, send.name),
		start: fields.name,
	};
}

/** `items` → Merge, `items` → token → Merge (input 2), Merge → `send`: the token on every item. */
function tokenMergedOnto(items: string, token: string, merge: string, send: string): IConnections {
	return {
		[items]: {
			main: [
				[
					{ node: merge, type: 'main', index: 0 },
					{ node: token, type: 'main', index: 0 },
				],
			],
		},
		[token]: { main: [[{ node: merge, type: 'main', index: 1 }]] },
		[merge]: { main: [[{ node: send, type: 'main', index: 0 }]] },
	};
}

/** Literal text as JSON, or an expression over the item (`textExpression`) inserted by n8n. */
function textOf(message: Message): string {
	return message.textExpression
		? `{{ JSON.stringify(${message.textExpression}) }}`
		: JSON.stringify(message.text);
}

/**
 * The one-request-per-item pattern of n8n's Twilio node, rebuilt against the simulator (Twilio's
 * URL is hard-coded): Edit Fields, one token fetched once and merged onto every item, then one
 * HTTP request per item carrying that item's single recipient.
 */
export function perItemSends(access: ProviderAccess, message: Message): BuiltWorkflow {
	const fields = recipientFields();
	const token = tokenRequest(access, { executeOnce: true });
	const merge = builtIn('merge', 'Merge', {
		mode: 'combine',
		combineBy: 'combineAll',
		options: {},
	});
	const send = campaignRequest(
		access,
		message,
		'[{ msisdn: $json.msisdn, notifyId: $json.notifyId }]',
		'$json.access_token',
	);
	return {
		nodes: [fields, token, merge, send],
		connections: tokenMergedOnto(fields.name, token.name, merge.name, send.name),
		start: fields.name,
	};
}

/**
 * One personalised text per row, as a user builds it with n8n's own nodes: the token fetched once
 * and merged onto every item, then one HTTP Request posting each item's own campaign (n8n's HTTP
 * Request node sends all items' requests at once). Items carry `msisdn` and `name`.
 */
export function personalisedSends(
	access: ProviderAccess,
	message: Message,
	options: {
		onError?: INode['onError'];
		/** HTTP Request's Batching: `size` items, then a pause of `intervalMs` (n8n does not wait for the answers). */
		batching?: { size: number; intervalMs: number };
	} = {},
): BuiltWorkflow {
	const token = tokenRequest(access, { executeOnce: true });
	const merge = builtIn('merge', 'Merge', {
		mode: 'combine',
		combineBy: 'combineAll',
		options: {},
	});
	const batching = options.batching
		? {
				batching: {
					batch: { batchSize: options.batching.size, batchInterval: options.batching.intervalMs },
				},
			}
		: {};
	const send = campaignRequest(
		access,
		message,
		'[{ msisdn: $json.msisdn }]',
		'$json.access_token',
		options.onError ? { onError: options.onError } : {},
		batching,
	);
	const start = builtIn('noOp', 'Rows', {});
	return {
		nodes: [start, token, merge, send],
		connections: tokenMergedOnto(start.name, token.name, merge.name, send.name),
		start: start.name,
	};
}
