// What a relay's reader is set with: the Events to take and the options, shared by the trigger and Verify Relay.
import type { INodeProperties } from 'n8n-workflow';

import { defaultEvents, eventNotices, eventOptions, type RelayEvent } from './events';
import { parseKeywords } from './events/fields/keywords';
import type { TriggerSettings } from './handler';
import type { TriggerOptions } from './parameters';

/** How a refused relay is told, in an option's description: the trigger answers it, Verify Relay puts it out. */
export type RefusalWording = { refused: string };

/** The Events field, its notices, and the notice shown when Verify Signature is off. */
export function relayEventFields(takes: string): INodeProperties[] {
	return [
		{
			displayName: 'Events',
			name: 'events',
			type: 'multiOptions',
			required: true,
			// Both from the event registry (events/index.ts); n8n's lint wants the default as an array literal.
			default: [...defaultEvents()],
			description: takes,
			options: eventOptions(),
		},
		...eventNotices(),
		{
			displayName:
				'Signature verification is off: anyone who knows the webhook URL can start this workflow with made-up messages. Items carry verified: false.',
			name: 'unverifiedNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { 'options.verifySignature': [false] } },
		},
	];
}

/** The options both readers have (sorted by name, as n8n lists them; the trigger adds its deprecated URL Token). */
export function relayOptionFields({ refused }: RefusalWording): INodeProperties[] {
	return [
		{
			displayName: 'Accept Receipts Without Notify ID',
			name: 'acceptUnlinkedReceipts',
			type: 'boolean',
			default: false,
			description: `Whether to let delivery receipts with an empty SMS-NotifyId through, marked verified: false. Their SMS-Verify is the same for every such receipt of the account, so one seen lets anyone forge them; they are ${refused} by default.`,
		},
		{
			displayName: 'Include Raw Fields',
			name: 'includeRaw',
			type: 'boolean',
			default: false,
			description:
				'Whether to add the fields as received under "raw", including the legacy SMS-AuthCode and SMS-GroupCode',
		},
		{
			displayName: 'Keywords',
			name: 'keywords',
			type: 'string',
			default: '',
			placeholder: 'CONFIRM, CANCEL, *',
			description:
				'Comma-separated keywords, case-insensitive. Inbound messages start the workflow only when the first word of the text (which the signature covers) is one of them. * stands for "none of the others". Leave empty for all. Opt-outs are never filtered.',
		},
		{
			displayName: 'STOP Replies as Opt-Outs',
			name: 'stopReplies',
			type: 'boolean',
			default: true,
			description:
				'Whether a reply to your own number whose whole text is STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT or OPT OUT (any case; spaces, punctuation and emoji around it ignored) arrives as an Opt-Out instead of an Inbound Message. A stop word texted to the shortcode 50123 is always an Opt-Out.',
		},
		{
			displayName: 'Verify Signature',
			name: 'verifySignature',
			type: 'boolean',
			default: true,
			description: `Whether to refuse relays and receipts whose SMS-Verify MD5 does not match the credential's Relay Secret: they are ${refused}`,
		},
	];
}

/** The settings a relay is read with, from the Events and options as set. */
export function relaySettingsOf(events: RelayEvent[], options: TriggerOptions): TriggerSettings {
	return {
		events,
		keywords: parseKeywords(options.keywords ?? ''),
		verifySignature: options.verifySignature !== false,
		includeRaw: options.includeRaw === true,
		stopReplies: options.stopReplies !== false,
		optIns: events.includes('optIn'),
		acceptUnlinkedReceipts: options.acceptUnlinkedReceipts === true,
	};
}
