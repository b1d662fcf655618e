// The example workflows' placeholders (YOUR_SENDER_ID…): a node still holding one sends nothing.
import type { INodeProperties } from 'n8n-workflow';

/**
 * How the examples mark what a user must choose: a whole value `YOUR_SENDER_ID`, `YOUR_QUESTION_LOG`
 * (also as an expression, `=YOUR_SENDER_ID`, as n8n's Fixed → Expression switch leaves it).
 */
const PLACEHOLDER = /^=?\s*(YOUR_[A-Z][A-Z0-9_]*)\s*$/;

/** What the examples leave to choose (Sender, Question Log, a reviewer): a Campaign Name is never refused. */
const CHOSEN = new Set(['from', 'questionLog', 'recipients']);

/**
 * Notices at the top of the panel, each shown while its field holds the examples' placeholder: a
 * placeholder in a list (Question Log, Sender) looks chosen otherwise, with no red border. Hidden
 * for any other value (n8n would show a notice whose condition reads an expression, so it must be
 * a hide rule, and so an exact value).
 */
export const placeholderNotices: INodeProperties[] = (
	[
		[
			'questionLog',
			'YOUR_QUESTION_LOG',
			'Question Log: choose your inbox workflow from the list below',
		],
		['from', 'YOUR_SENDER_ID', 'Sender: choose your own sender from the list below'],
		['recipients', 'YOUR_REVIEWER_NUMBER', 'To: put the number to text below'],
	] as const
).map(([name, placeholder, what]) => ({
	displayName: `${what}. It still holds the example's placeholder ${placeholder}, and nothing is sent until it is chosen.`,
	name: `${name}Placeholder`,
	type: 'notice',
	default: '',
	displayOptions: { hide: { [name]: [{ _cnd: { not: placeholder } }] } },
}));

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

type VersionRule = number | { _cnd?: { gte?: number } };

/** Whether a field shows in this node version (Sender differs between versions 1 and 2). */
function inVersion(field: INodeProperties, version: number): boolean {
	const rules = field.displayOptions?.show?.['@version'] as VersionRule[] | undefined;
	if (!rules) return true;
	return rules.some((rule) =>
		typeof rule === 'number' ? rule === version : version >= (rule._cnd?.gte ?? Infinity),
	);
}

/** Every placeholder the operation's own fields still hold, in the panel's order. */
export function heldPlaceholders(
	parameters: Readonly<Record<string, unknown>>,
	fields: readonly INodeProperties[],
	version = 1,
): HeldPlaceholder[] {
	return fields
		.filter(
			(field) => CHOSEN.has(field.name) && field.name in parameters && inVersion(field, version),
		)
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
	return `This node still holds the example's placeholders: ${listed}. Choose your own in the node (the Sender from its list, the inbox workflow as Question Log) and run again; nothing was sent`;
}
