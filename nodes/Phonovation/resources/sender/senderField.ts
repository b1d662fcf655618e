// The Sender field of the campaign and conversation operations, in both node versions, and how it is read.
import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { canReceiveReplies, fetchSenders, senderTypeLabel } from './senders';

/** The parameter's name: saved workflows and the campaign pipeline know it as `from`. */
export const SENDER_PARAMETER = 'from';

const DESCRIPTION = 'Approved sender ID shown on the handset (max 20 characters)';

/**
 * Version 1: a dropdown n8n fills when the panel opens. A new node's first open could show "Error
 * fetching options": n8n asks before it has set the credential and does not ask again.
 */
const dropdown = (description: string): INodeProperties => ({
	displayName: 'Sender Name or ID',
	name: SENDER_PARAMETER,
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getSenders' },
	required: true,
	default: '',
	description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	displayOptions: { show: { '@version': [1] } },
});

/**
 * Version 2: a list n8n fills when the user opens it (the credential is set by then), or an ID
 * typed in. Stored as `{ __rl, mode, value }`; readSender gives the ID either way.
 */
const locator = (description: string): INodeProperties => ({
	displayName: 'Sender',
	name: SENDER_PARAMETER,
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchSenders', searchable: true },
		},
		{
			displayName: 'ID',
			name: 'id',
			type: 'string',
			placeholder: 'Phonovation',
			hint: 'An approved sender ID of the account, as the list shows it',
		},
	],
	displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
});

/** The Sender field for each node version; `description` says what this operation needs of it. */
export const senderFields = (description = DESCRIPTION): INodeProperties[] => [
	dropdown(description),
	locator(description),
];

/** The sender ID an item's Sender holds, in either version (a resource locator gives its value). */
export function readSender(ctx: IExecuteFunctions, itemIndex: number, fallback = ''): unknown {
	return ctx.getNodeParameter(SENDER_PARAMETER, itemIndex, fallback, { extractValue: true });
}

/** What a stored Sender holds: its value when it is a resource locator, else itself. */
export const storedSender = (raw: unknown): unknown =>
	raw !== null && typeof raw === 'object' && '__rl' in raw
		? (raw as { value?: unknown }).value
		: raw;

/** Operations whose text is answered by SMS: only a sender that can receive replies makes sense. */
const ANSWERED_OPERATIONS = ['sendAndWait'];

function answeredOperation(ctx: ILoadOptionsFunctions): boolean {
	try {
		return ANSWERED_OPERATIONS.includes(String(ctx.getCurrentNodeParameter('operation')));
	} catch {
		return false;
	}
}

/** The account's senders, as the list shows them; for an answered operation, those that can receive replies. */
const options = async (ctx: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> =>
	(await fetchSenders(ctx))
		.filter((s) => !answeredOperation(ctx) || canReceiveReplies(s.name))
		.map((s) => ({ name: `${s.name} (${senderTypeLabel(s.type)})`, value: s.name }))
		.sort((a, b) => a.name.localeCompare(b.name));

/** Fills version 1's dropdown from the account's approved sender IDs. */
export async function getSenders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await options(this);
}

/** Fills version 2's list, narrowed by what the user types. */
export async function searchSenders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const wanted = filter?.trim().toLowerCase() ?? '';
	const results = (await options(this)).filter((o) => o.name.toLowerCase().includes(wanted));
	return { results: results.map(({ name, value }) => ({ name, value })) };
}
