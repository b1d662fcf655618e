// A resource's fields: its Operation picker, made from its operations, then each operation's own.
import type { INodeProperties } from 'n8n-workflow';

/** How the Operation picker lists an operation: its name, description and action. */
export type Listing = readonly [name: string, description: string, action: string];

/**
 * The Operation picker (its options in the alphabetical order n8n lists them) and then each
 * operation's fields, in the order of `operations`.
 */
export function resourceFields<Operation extends string>(
	resource: string,
	operations: Readonly<Record<Operation, { description: INodeProperties[] }>>,
	selected: NoInfer<Operation>,
	listings: Readonly<Record<NoInfer<Operation>, Listing>>,
): INodeProperties[] {
	const options = Object.entries<Listing>(listings)
		.map(([value, [name, description, action]]) => ({ name, value, description, action }))
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
		...Object.values<{ description: INodeProperties[] }>(operations).flatMap(
			(operation) => operation.description,
		),
	];
}
