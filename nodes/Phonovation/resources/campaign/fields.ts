import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	DEFAULT_COUNTRY_CODE,
	DEFAULT_PARALLEL_REQUESTS,
	DEFAULT_TIMEOUT_MS,
	LIMITS,
	MAX_PARALLEL_REQUESTS,
} from '../../domain/rules';
import { SUGGESTED_OPT_OUT_TEXT } from '../../../shared/optOutWords';

/** The provider's ceiling is also the default: a campaign goes out in as few requests as it can. */
const MAX_BATCH_SIZE = LIMITS.recipientsPerRequest;

/** The Sender picker, filled from the account's approved sender IDs (Conversation uses it too). */
export const senderField: INodeProperties = {
	displayName: 'Sender Name or ID',
	name: 'from',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getSenders' },
	required: true,
	default: '',
	description:
		'Approved sender ID shown on the handset (max 20 characters). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** Parameters of Send; Schedule has them too, plus Send At after Recipients. */
const messageFields: INodeProperties[] = [
	senderField,
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
		description:
			'Numbers for this item: one number, a list separated by commas, semicolons or new lines, or an array. Items with the same sender, text, send time and campaign name are sent together as one campaign.',
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

const campaignOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Adaptive Parallel Requests',
			name: 'adaptiveParallelRequests',
			type: 'boolean',
			default: true,
			description:
				"Whether to start with a few requests at once and raise the number while the provider answers fast, lowering it when answers slow down or an HTTP 429 comes (which also pauses every request for the provider's Retry-After). Off: Parallel Requests at once, halved after an HTTP 429 and climbing back. Read from the first item.",
		},
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
			default: MAX_BATCH_SIZE,
			description: `Most recipients per request; larger campaigns are split. The provider accepts at most ${LIMITS.recipientsPerRequest}.`,
		},
		{
			displayName: 'Campaign Name',
			name: 'campaignName',
			type: 'string',
			default: '',
			description: `Name for the provider's reports, at most ${LIMITS.campaignName} characters (the provider uses "API Broadcast" when empty)`,
		},
		{
			displayName: 'Default Country Code',
			name: 'defaultCountryCode',
			type: 'string',
			default: DEFAULT_COUNTRY_CODE,
			description:
				"A country's calling code (353 = Ireland, 44 = UK; +44 and 0044 also work) given to numbers written in national form: with their leading 0, or as written at home where there is none (Spain, Italy, the US). Other numbers must carry their country code; digits without + or 00 that could also be the country's number without its 0 (7911123456 with 44: +7… or 07911…) are invalid, and the reason names both readings. A code no country has (such as 35) is an error.",
		},
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description:
				'Whether to check everything and show the exact request body without sending anything (no credits used)',
		},
		{
			displayName: 'Exclude Numbers',
			name: 'excludeNumbers',
			type: 'string',
			default: '',
			description:
				"Suppression list: numbers never to send to, e.g. all items of an Opted-Out node. Takes text (comma, semicolon, line or space separated), numbers, arrays, n8n items and objects (every field named phone, mobile, cell, tel, msisdn or number). Compared after normalisation; a number that lost its leading 0 (7911123456 with Default Country Code 44) excludes every number it may be. An entry it cannot read stops the run (see Unreadable Exclusions).",
		},
		{
			displayName: 'Invalid Numbers',
			name: 'invalidNumbers',
			type: 'options',
			default: 'skip',
			options: [
				{
					name: 'Fail',
					value: 'fail',
					description: 'Stop the campaign before sending if any number is invalid',
				},
				{
					name: 'Skip and Report',
					value: 'skip',
					description: 'Send to the valid numbers and list the invalid ones in the output',
				},
			],
		},
		{
			displayName: 'Message Type',
			name: 'messageType',
			type: 'options',
			default: 'marketing',
			options: [
				{
					name: 'Marketing',
					value: 'marketing',
					description: 'Offers, news, promotions: the text must tell recipients how to opt out',
				},
				{
					name: 'Transactional',
					value: 'transactional',
					description: 'Reminders, confirmations, alerts the recipient expects: no opt-out wording needed',
				},
			],
			description: 'Whether the text is direct marketing, which Irish and EU rules require to offer a way to opt out',
		},
		{
			displayName: 'Missing Opt-Out Wording',
			name: 'missingOptOut',
			type: 'options',
			default: 'warn',
			options: [
				{
					name: 'Fail',
					value: 'fail',
					description: 'Stop before sending, naming the item',
				},
				{
					name: 'Warn',
					value: 'warn',
					description: 'Send, with a warning in the output',
				},
			],
			description: 'What to do with a Marketing text that has no STOP, OPTOUT or 50123 wording and no Opt-Out Text',
		},
		{
			displayName: 'Notify ID',
			name: 'notifyId',
			type: 'string',
			default: '',
			description: `Your reference for this item's recipients (max ${LIMITS.notifyId} characters), echoed in delivery receipts, processing results and linked replies`,
		},
		{
			displayName: 'Opt-Out Text',
			name: 'optOutText',
			type: 'string',
			default: SUGGESTED_OPT_OUT_TEXT,
			description: `Added on a line of its own at the end of the text, unless the text already ends with it. Counts toward the ${LIMITS.text}-character limit and the parts billed.`,
		},
		{
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
			default: DEFAULT_PARALLEL_REQUESTS,
			description:
				"Most campaign requests in flight at once, for runs with many campaigns (e.g. one personalised text per item). With Adaptive Parallel Requests on, the node starts lower and finds the provider's pace below this. Each campaign's batches still go out in order. Read from the first item.",
		},
		{
			displayName: 'Quiet Hours',
			name: 'quietHours',
			type: 'string',
			default: '21:00-08:00',
			placeholder: '21:00-08:00',
			description:
				'Daily window (24-hour clock, local time) in which no text goes out: a Send inside it is scheduled for the end of the window, and so is a Schedule whose Send At falls inside it. The output says so in its warnings.',
		},
		{
			displayName: 'Quiet Hours Time Zone',
			name: 'quietHoursTimeZone',
			type: 'string',
			default: '',
			placeholder: 'Europe/Dublin',
			description: "Time zone of the Quiet Hours, e.g. Europe/Dublin. Empty: the workflow's time zone.",
		},
		{
			displayName: 'Request Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1000 },
			default: DEFAULT_TIMEOUT_MS,
			description: 'Milliseconds to wait for the provider before the request fails',
		},
		{
			displayName: 'Unreadable Exclusions',
			name: 'unreadableExclusions',
			type: 'options',
			default: 'fail',
			options: [
				{
					name: 'Fail',
					value: 'fail',
					description: 'Stop before sending, naming the entry and the item: it may be an opted-out number',
				},
				{
					name: 'Warn',
					value: 'warn',
					description: 'Send, listing the entries in the output warnings; they exclude no one',
				},
			],
			description: 'What to do when an Exclude Numbers entry cannot be read as a phone number',
		},
	],
};

/** The fields of one campaign operation, shown only when it is selected. */
export function campaignProperties(operation: 'send' | 'schedule'): INodeProperties[] {
	const fields = operation === 'schedule' ? [...messageFields, sendAtField, campaignOptions] : [...messageFields, campaignOptions];
	return updateDisplayOptions({ show: { resource: ['campaign'], operation: [operation] } }, fields);
}

const optionFields = campaignOptions.options as INodeProperties[];

/** The campaign options' names, as the descriptions above list them: the one list of them. */
export const OPTION_NAMES: readonly string[] = optionFields.map((option) => option.name);

/**
 * Each field's and option's label as an error names it: its display name, less the " Name or ID"
 * n8n asks of a list that can also take an expression ("Sender Name or ID" → "Sender").
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = Object.fromEntries([
	...[...messageFields, sendAtField, campaignOptions, ...optionFields].map((field) => [field.name, field.displayName.replace(/ Name or ID$/, '')]),
	['credential', 'Credential'],
]);
