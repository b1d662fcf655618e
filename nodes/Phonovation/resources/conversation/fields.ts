import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DEFAULT_COUNTRY_CODE } from '../../domain/rules';
import { senderField } from '../campaign/fields';
import { DEFAULT_NO_WORDS, DEFAULT_YES_WORDS } from '../../../shared/approvalWords';
import { questionLogField } from './questionLog';

/** A day: long enough for an appointment's confirmation, short enough that no run waits for ever. */
export const DEFAULT_WAIT_MINUTES = 1440;

/**
 * Send and Wait for Delivery: an hour by default (most receipts come within seconds to minutes),
 * at most two days (the provider's receipts can be up to 48 hours late).
 */
const DEFAULT_DELIVERY_WAIT_MINUTES = 60;
export const DELIVERY_WAIT = { min: 1, max: 2880, fallback: DEFAULT_DELIVERY_WAIT_MINUTES };

/**
 * The fields the campaign pipeline texts the question from (runCampaigns): To is stored as
 * `recipients`, the name saved workflows have; Message is `message`, the field n8n's AI Agent
 * human review replaces with the tool call it asks about (workflows saved before used `text`).
 */
export const QUESTION_PARAMETERS = {
	from: senderField.name,
	text: 'message',
	recipients: 'recipients',
} as const;

const toField = (verb: 'ask' | 'text'): INodeProperties => ({
	displayName: 'To',
	name: QUESTION_PARAMETERS.recipients,
	type: 'string',
	required: true,
	default: '',
	placeholder: '0871234567',
	description: `The one number to ${verb}`,
});

/** Message is `message`: the field n8n's AI Agent human review replaces with the tool call. */
const messageField = (placeholder: string): INodeProperties => ({
	displayName: 'Message',
	name: QUESTION_PARAMETERS.text,
	type: 'string',
	typeOptions: { rows: 3 },
	required: true,
	default: '',
	placeholder,
});

const countryCodeOption: INodeProperties = {
	displayName: 'Default Country Code',
	name: 'defaultCountryCode',
	type: 'string',
	default: DEFAULT_COUNTRY_CODE,
	description: 'Country calling code for a number written nationally (087…)',
};

const excludeNumbersOption = (verb: 'ask' | 'text'): INodeProperties => ({
	displayName: 'Exclude Numbers',
	name: 'excludeNumbers',
	type: 'string',
	default: '',
	description: `Numbers never to ${verb}, such as your opt-out list (the same forms as a campaign's Exclude Numbers); an excluded number is an error, nothing is sent`,
});

const sendAndWaitFields: INodeProperties[] = [
	questionLogField,
	{
		...senderField,
		description:
			'A numeric longcode of your account that can receive replies (an alphanumeric sender cannot be answered). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	toField('ask'),
	messageField('Reply YES to confirm your appointment tomorrow at 10:00, NO to cancel'),
	// Read when the answer comes, from the paused item: what was asked, of whom and when.
	{ displayName: 'Asked At', name: 'askedAt', type: 'hidden', default: '={{ $json.askedAt }}' },
	{ displayName: 'Asked To', name: 'askedTo', type: 'hidden', default: '={{ $json.to }}' },
	{
		displayName: 'Asked Notify ID',
		name: 'askedNotifyId',
		type: 'hidden',
		default: '={{ $json.notifyId }}',
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		required: true,
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'A yes or a no texted back: the output says approved true or false',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description:
					'Any text texted back. Without the Answer Code option, a captured reply from the number, sent again with a new time stamp while a question waits, is taken as its answer.',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Answer Code',
				name: 'answerCode',
				type: 'boolean',
				default: false,
				description:
					'Whether the question ends with its own code ("Reply YES 4821 or NO 4821"; for Free Text "Start your reply with 4821") and only a reply carrying it answers, a STOP included, so a captured reply sent again can never answer a later question (on by default for the AI Agent\'s human review)',
			},
			countryCodeOption,
			excludeNumbersOption('ask'),
			{
				displayName: 'Limit Wait Time (Minutes)',
				name: 'limitWaitTime',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_WAIT_MINUTES,
				description:
					'After this many minutes without an answer the run goes on with answer "timedOut" (0: wait without a limit). n8n checks waiting runs once a minute.',
			},
			{
				displayName: 'No Words',
				name: 'noWords',
				type: 'string',
				default: DEFAULT_NO_WORDS.join(', '),
				description:
					'Replies that decline, comma-separated (Approval); case, accents and punctuation around them are ignored',
			},
			{
				displayName: 'Other Replies',
				name: 'otherReplies',
				type: 'options',
				default: 'keepWaiting',
				options: [
					{
						name: 'Keep Waiting',
						value: 'keepWaiting',
						description: 'A reply that is neither a yes nor a no word leaves the run waiting',
					},
					{
						name: 'Go On',
						value: 'goOn',
						description: 'The run goes on with approved: null and the text',
					},
				],
				description: 'What a reply that is no answer does (Approval)',
			},
			{
				displayName: 'Re-Prompt Text',
				name: 'repromptText',
				type: 'string',
				default: '',
				placeholder: 'Sorry, we did not get that. Please reply YES to confirm or NO to cancel.',
				description:
					'Handed to Deliver Reply (as reprompt) when a reply is no answer, for the inbox to text back (Approval); each one is a paid text. Empty: nothing is texted.',
			},
			{
				displayName: 'Yes Words',
				name: 'yesWords',
				type: 'string',
				default: DEFAULT_YES_WORDS.join(', '),
				description:
					'Replies that approve, comma-separated (Approval); case, accents and punctuation around them are ignored',
			},
		],
	},
];

const deliverReplyFields: INodeProperties[] = [
	questionLogField,
	{
		displayName: 'Reply',
		name: 'reply',
		type: 'json',
		required: true,
		default: '={{ $json }}',
		description:
			"The Phonovation Trigger's item for the reply (Inbound Message or Opt-Out): its from, text, event and verified, and unverified.receivedAt and unverified.notifyId. An unverified reply is never delivered.",
	},
];

const sendAndWaitForDeliveryFields: INodeProperties[] = [
	questionLogField,
	senderField,
	toField('text'),
	messageField('Reminder: your appointment is tomorrow at 10:00'),
	// Read when the receipt comes: the paused item, so every branch carries the input's fields.
	{ displayName: 'Waiting Item', name: 'waitingItem', type: 'hidden', default: '={{ $json }}' },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			countryCodeOption,
			excludeNumbersOption('text'),
			{
				displayName: 'Limit Wait Time (Minutes)',
				name: 'limitWaitTime',
				type: 'number',
				typeOptions: { minValue: DELIVERY_WAIT.min, maxValue: DELIVERY_WAIT.max },
				default: DEFAULT_DELIVERY_WAIT_MINUTES,
				description:
					'After this many minutes without a delivery receipt the run goes on at No Receipt (1 to 2,880). No receipt does not mean not delivered: receipts can come up to 48 hours late. n8n checks waiting runs once a minute.',
			},
		],
	},
];

const deliverReceiptFields: INodeProperties[] = [
	questionLogField,
	{
		displayName: 'Receipt',
		name: 'receipt',
		type: 'json',
		required: true,
		default: '={{ $json }}',
		description:
			"The Phonovation Trigger's Delivery Receipt item (or a Processing Result item that refuses a number). An unverified one is never delivered.",
	},
];

export const sendAndWaitForDeliveryDescription = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['sendAndWaitForDelivery'] } },
	sendAndWaitForDeliveryFields,
);
export const deliverReceiptDescription = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['deliverReceipt'] } },
	deliverReceiptFields,
);

export const sendAndWaitDescription = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['sendAndWait'] } },
	sendAndWaitFields,
);
export const deliverReplyDescription = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['deliverReply'] } },
	deliverReplyFields,
);
