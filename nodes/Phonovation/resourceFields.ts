// A resource's fields: its Operation picker, made from its operations, then each operation's own.
import type { INodeProperties } from 'n8n-workflow';

/** How the Operation picker lists an operation. */
export interface Listed {
	name: string;
	description: string;
	action: string;
}

/** What an operation module gives its resource's fields. */
export interface OperationFields {
	listed: Listed;
	description: INodeProperties[];
}

/**
 * The Operation picker (its options in the alphabetical order n8n lists them) and then each
 * operation's fields, in the order of `operations`.
 */
export function resourceFields(
	resource: string,
	operations: Readonly<Record<string, OperationFields>>,
	selected: string,
): INodeProperties[] {
	const options = Object.entries(operations)
		.map(([value, { listed }]) => ({
			name: listed.name,
			value,
			description: listed.description,
			action: listed.action,
		}))
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
		...Object.values(operations).flatMap((operation) => operation.description),
	];
}
