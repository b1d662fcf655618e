import type { INodeProperties } from 'n8n-workflow';

import { LIMITS } from '../../domain/campaignRules';

const forCampaign = (operation: string[]) => ({ show: { resource: ['campaign'], operation } });
const both = forCampaign(['send', 'schedule']);

/** Parameters shared by Send and Schedule (Schedule adds Send At). */
export const campaignFields: INodeProperties[] = [
	{
		displayName: 'Sender Name or ID',
		name: 'from',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSenders' },
		required: true,
		default: '',
		displayOptions: both,
		description:
			'Approved sender ID shown on the handset (max 20 characters). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		displayOptions: both,
		description: `Message text, at most ${LIMITS.text} characters. Characters outside the GSM alphabet (e.g. á í ó ú, emoji, curly quotes) switch the message to UCS-2, which fits 70 characters per part instead of 160.`,
	},
	{
		displayName: 'Recipients',
		name: 'recipients',
		type: 'string',
		required: true,
		default: '',
		placeholder: '0871234567, +44 7911 123456',
		displayOptions: both,
		description:
			'Numbers for this item: one number, a list separated by commas, semicolons or new lines, or an array. Items with the same sender, text, send time and campaign name are sent together as one campaign.',
	},
];

export const sendAtField: INodeProperties = {
	displayName: 'Send At',
	name: 'sendAt',
	type: 'dateTime',
	required: true,
	default: '',
	displayOptions: forCampaign(['schedule']),
	description:
		'When the provider should send the campaign. A time without a zone is read in the workflow time zone; it is converted to UTC. Must be in the future.',
};

export const campaignOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: both,
	options: [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: LIMITS.recipientsPerRequest },
			default: 400000,
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
			default: '353',
			description:
				'Country code given to numbers written in national form with a leading 0 (353 = Ireland). Other numbers must carry their country code.',
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
				'Suppression list: numbers never to send to, e.g. opted-out numbers from a Data Table. A list or an array; compared after normalisation.',
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
			displayName: 'Notify ID',
			name: 'notifyId',
			type: 'string',
			default: '',
			description: `Your reference for this item's recipients (max ${LIMITS.notifyId} characters), echoed in delivery receipts, processing results and linked replies`,
		},
		{
			displayName: 'Request Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1000 },
			default: 120000,
			description: 'Milliseconds to wait for the provider before the request fails',
		},
	],
};
