// The fields the conversation operations share (the two waits' first fields and options) and how each shows.
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DEFAULT_COUNTRY_CODE } from '../../domain/rules';
import { SENDER_PARAMETER } from '../sender/senderField';
import { waitingItemField } from './ask/paused';
import { questionLogField } from './questionLog';

/**
 * The fields the campaign pipeline texts the question from (sendOneText): To is stored as
 * `recipients`, the name saved workflows have; Message is `message`, the field n8n's AI Agent
 * human review replaces with the tool call it asks about (workflows saved before used `text`).
 */
export const QUESTION_PARAMETERS = {
	from: SENDER_PARAMETER,
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

/**
 * What both waits' fields begin with: the Question Log, the sender, the one number (`verb`: to ask
 * or to text) and the message, then the paused item read back when something comes.
 */
export const waitFields = (
	verb: 'ask' | 'text',
	sender: INodeProperties[],
	placeholder: string,
): INodeProperties[] => [
	questionLogField,
	...sender,
	toField(verb),
	messageField(placeholder),
	waitingItemField,
];

/** The options both waits have, among their others (sorted by name). */
export const waitOptions = (verb: 'ask' | 'text'): INodeProperties[] => [
	countryCodeOption,
	excludeNumbersOption(verb),
];

/** An operation's fields, shown only when Conversation and that operation are selected. */
export const operationFields = (operation: string, fields: INodeProperties[]): INodeProperties[] =>
	updateDisplayOptions({ show: { resource: ['conversation'], operation: [operation] } }, fields);
