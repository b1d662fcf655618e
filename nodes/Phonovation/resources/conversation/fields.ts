// The fields the conversation operations share (the two waits' first fields and options) and how each shows.
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { defaultCountryCodeField, excludeNumbersField } from '../../numberFields';
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

/** Default Country Code's description where one number is read. */
export const NATIONAL_NUMBER = 'Country calling code for a number written nationally (087…)';

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
	defaultCountryCodeField(NATIONAL_NUMBER),
	excludeNumbersField(
		`The number to ${verb} must not be one of them: that is an error, and nothing is sent.`,
	),
];

/** An operation's fields, shown only when Conversation and that operation are selected. */
export const operationFields = (operation: string, fields: INodeProperties[]): INodeProperties[] =>
	updateDisplayOptions({ show: { resource: ['conversation'], operation: [operation] } }, fields);
