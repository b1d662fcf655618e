// The campaign operations' fields (Sender, Text, Recipients, Send At, Options) and their labels.
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LIMITS } from '../../domain/rules';
import { senderFields } from '../sender/senderField';
import { CAMPAIGN_KEY_WORDING, OPTION_FIELDS } from './options';

/** Parameters of Send; Schedule has them too, plus Send At after Recipients. */
const messageFields: INodeProperties[] = [
	...senderFields(),
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description: `Message text, at most ${LIMITS.text} characters. Characters outside the GSM alphabet (e.g. á í ó ú, emoji, curly quotes) switch the message to UCS-2, which fits 70 characters per part instead of 160.`,
	},
	{
		displayName: 'Recipients',
		name: 'recipients',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0871234567, +44 7911 123456',
		description: `Numbers for this item: one number, a list separated by commas, semicolons or new lines, or an array. Items with the same ${CAMPAIGN_KEY_WORDING} are sent together as one campaign, each number once.`,
	},
];

const sendAtField: INodeProperties = {
	displayName: 'Send At',
	name: 'sendAt',
	type: 'dateTime',
	required: true,
	default: '',
	description:
		'When the provider should send the campaign. A time without a zone is read in the workflow time zone; it is converted to UTC. Must be in the future.',
};

/** The options, from their table (options/). */
const campaignOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: OPTION_FIELDS,
};

/** The fields of one campaign operation, shown only when it is selected. */
export function campaignProperties(operation: 'send' | 'schedule'): INodeProperties[] {
	const fields =
		operation === 'schedule'
			? [...messageFields, sendAtField, campaignOptions]
			: [...messageFields, campaignOptions];
	return updateDisplayOptions({ show: { resource: ['campaign'], operation: [operation] } }, fields);
}

/**
 * Each field's and option's label as an error names it: its display name, less the " Name or ID"
 * n8n asks of a list that can also take an expression ("Sender Name or ID" → "Sender").
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = Object.fromEntries([
	...[...messageFields, sendAtField, campaignOptions, ...OPTION_FIELDS].map((field) => [
		field.name,
		field.displayName.replace(/ Name or ID$/, ''),
	]),
	['credential', 'Credential'],
]);
