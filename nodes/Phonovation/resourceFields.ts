// A resource's fields: its Operation picker, made from its operations, then each operation's own.
import type { INodeProperties } from 'n8n-workflow';

/**
 * How the Operation picker lists an operation: its name, description and action, and where in this
 * repository's docs it is explained (a path and heading, e.g. `docs/campaigns.md#…`).
 */
export type Listing = readonly [name: string, description: string, action: string, docs: string];

/** Where the docs are read: the repository's main branch, as the node's own Docs link. */
const DOCS_BASE = 'https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation/blob/main/';

/**
 * A link under the Operation picker to the docs of the operation in use: n8n's Docs link in the
 * panel's header is one per node.
 */
const docsNotice = (
	resource: string,
	operation: string,
	[name, , , docs]: Listing,
): INodeProperties => ({
	displayName: `How ${name} works: <a href="${DOCS_BASE}${docs}" target="_blank">${docs.replace(/#.*/, '')}</a>`,
	name: 'operationDocs',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: [resource], operation: [operation] } },
});

/** An operation as its resource lists it: its fields, and how the Operation picker lists it. */
interface ListedOperation {
	description: INodeProperties[];
	listing: Listing;
}

/**
 * The Operation picker (its options in the alphabetical order n8n lists them, each as its
 * operation's own `listing`) and then each operation's fields, in the order of `operations`.
 */
export function resourceFields<Operation extends string>(
	resource: string,
	operations: Readonly<Record<Operation, ListedOperation>>,
	selected: NoInfer<Operation>,
): INodeProperties[] {
	const listed = Object.entries<ListedOperation>(operations);
	const options = listed
		.map(([value, { listing }]) => {
			const [name, description, action] = listing;
			return { name, value, description, action };
		})
		.sort((a, b) => a.name.localeCompare(b.name));
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options,
			default: selected,
		},
		...listed.map(([operation, { listing }]) => docsNotice(resource, operation, listing)),
		...listed.flatMap(([, operation]) => operation.description),
	];
}
