// The example workflows' placeholders (YOUR_SENDER_ID…): a node still holding one sends nothing.
import type { INodeProperties } from 'n8n-workflow';

/**
 * How the examples mark what a user must choose: a whole value `YOUR_SENDER_ID`, `YOUR_QUESTION_LOG`
 * (a text that only mentions one is the user's own words).
 */
const PLACEHOLDER = /^\s*(YOUR_[A-Z][A-Z0-9_]*)\s*$/;

/** A parameter of the node still holding a placeholder: its label as the panel shows it, and the placeholder. */
export interface HeldPlaceholder {
	label: string;
	placeholder: string;
}

/** The placeholders anywhere inside one parameter's value (a resource locator, a collection, a list). */
function placeholdersOf(value: unknown): string[] {
	if (typeof value === 'string') {
		const found = PLACEHOLDER.exec(value);
		return found ? [found[1]] : [];
	}
	if (value === null || typeof value !== 'object') return [];
	return Object.values(value).flatMap(placeholdersOf);
}

/** Whether a field is shown for this operation (n8n keeps a hidden field's old value in the node). */
function shownFor(property: INodeProperties, operation: string): boolean {
	const operations = property.displayOptions?.show?.operation;
	return operations === undefined || operations.includes(operation);
}

/**
 * Every placeholder the node's own fields for this operation still hold, in the panel's order:
 * its Sender, its Question Log, anything an example left to choose.
 */
export function heldPlaceholders(
	parameters: Readonly<Record<string, unknown>>,
	fields: readonly INodeProperties[],
	operation: string,
): HeldPlaceholder[] {
	return fields
		.filter((field) => shownFor(field, operation) && field.name in parameters)
		.flatMap((field) =>
			placeholdersOf(parameters[field.name]).map((placeholder) => ({
				label: field.displayName,
				placeholder,
			})),
		);
}

/** What the user reads: every placeholder named, what to do, and that nothing went out. */
export function placeholderMessage(held: readonly HeldPlaceholder[]): string {
	const listed = held.map(({ label, placeholder }) => `${label} (${placeholder})`).join(', ');
	return `This node still holds the example's placeholders: ${listed}. Choose your own in the node (the Sender from its list, the Question Log workflow you imported) and run again; nothing was sent`;
}
