import type { IDataObject } from 'n8n-workflow';

import { OPT_OUT_SHORTCODE } from '../shared/optOutWords';

import { jsonField } from './events';
import type { FormFields } from './formBody';
import { firstWord, NO_KEYWORD } from './keywords';
import { networkOf } from './network';
import { optOutOf } from './optOuts';
import { badRequest } from './rejection';
import { relayKeyOf } from './relayKey';
import { finishedAtOf, gatewayTimestamp } from './timestamps';

export const SUPPRESSION_HINT =
	'Add this number to your suppression list now and send it no more marketing messages.';

/** Said on a message whose unsigned SMS-To is the shortcode but whose signed text is not a stop word. */
export const SHORTCODE_TEXT_HINT =
	'Texted to the opt-out shortcode 50123 (so SMS-To says; the signature does not cover it), but the text is not STOP or OPTOUT alone, so it is not treated as an opt-out. Check whether the sender meant to opt out.';

/** Said on a receipt without a NotifyId, accepted only when the node's option allows it. */
export const UNLINKED_RECEIPT_HINT =
	'This receipt has no NotifyId. Its SMS-Verify is the same for every such receipt of your account, so it does not prove that this receipt is genuine.';

function required(fields: FormFields, name: string): string {
	const value = fields.get(name);
	if (value === undefined) throw badRequest(`Missing field ${name}`);
	return value;
}

function orNull(value: string | undefined): string | null {
	return value === undefined || value === '' ? null : value;
}

function count(fields: FormFields, name: string): number | null {
	const value = fields.get(name)?.trim() ?? '';
	if (value === '') return null;
	if (!/^\d+$/.test(value)) throw badRequest(`${name} is not a whole number`);
	return Number(value);
}

function delivered(success: string): boolean {
	const value = success.trim().toLowerCase();
	if (value === 'true') return true;
	if (value === 'false') return false;
	throw badRequest('SMS-Success is neither True nor False');
}

function keyphraseOf(fields: FormFields): string | null {
	const keyphrase = fields.get('SMS-Keyphrase')?.trim();
	return keyphrase === NO_KEYWORD ? null : orNull(keyphrase);
}

/**
 * An inbound message or opt-out as an output item (without `verified`). What the signature
 * covers (From, Content) decides the event and keyword; the other fields are delivered under
 * `unverified`, since anyone who replays a signed relay can change them.
 */
export function messageItem(fields: FormFields, settings: { stopReplies: boolean }): IDataObject {
	const from = required(fields, 'SMS-From');
	if (from.trim() === '') throw badRequest('Empty field SMS-From');
	const text = required(fields, 'SMS-Content');
	const to = orNull(fields.get('SMS-To'));
	const toShortcode = to?.trim() === OPT_OUT_SHORTCODE;
	const optOut = optOutOf(text, { stopReplies: settings.stopReplies, toShortcode });
	const event = optOut === null ? 'inbound' : 'optOut';
	const item: IDataObject = { event, from, text, keyword: orNull(firstWord(text)) };
	if (optOut !== null) {
		item.optOutKeyword = optOut.keyword;
		item.hint = SUPPRESSION_HINT;
	} else if (toShortcode) {
		item.hint = SHORTCODE_TEXT_HINT;
	}
	// The digest covers From + Content as one string; so does the key. It names the recipe, not the
	// event: the unsigned SMS-To can turn a stop word into an opt-out, which must not make a new key.
	item.relayKey = relayKeyOf('message', [from + text]);
	item.unverified = {
		to,
		notifyId: orNull(fields.get('SMS-NotifyId')),
		keyphrase: keyphraseOf(fields),
		type: orNull(fields.get('SMS-Type')),
		network: networkOf(fields.get('SMS-Network')) as IDataObject | null,
		receivedAt: gatewayTimestamp(fields.get('SMS-TimeStamp')),
		...(optOut === null ? {} : { via: optOut.via }),
	};
	return item;
}

/** A delivery receipt as an output item (without `verified`): NotifyId and Success are signed. */
export function receiptItem(fields: FormFields): IDataObject {
	const notifyId = orNull(required(fields, 'SMS-NotifyId'));
	const isDelivered = delivered(required(fields, 'SMS-Success'));
	return {
		event: 'deliveryReceipt',
		notifyId,
		delivered: isDelivered,
		relayKey: relayKeyOf('deliveryReceipt', [notifyId, isDelivered]),
		unverified: {
			to: orNull(fields.get('SMS-To')),
			from: orNull(fields.get('SMS-From')),
			totalToSend: count(fields, 'SMS-TotalToSend'),
			totalSent: count(fields, 'SMS-TotalSent'),
			totalFailed: count(fields, 'SMS-TotalFailed'),
			receivedAt: gatewayTimestamp(fields.get('SMS-TimeStamp')),
		},
	};
}

function optionalText(value: IDataObject, name: string): string | null {
	const field = jsonField(value, name);
	if (field === undefined || field === null || field === '') return null;
	if (typeof field === 'number' && Number.isFinite(field)) return String(field);
	if (typeof field !== 'string') throw badRequest(`${name} is not a string`);
	return field;
}

/**
 * A V2 processing result (JSON) as an output item; `NotifyId` is absent on CAMPAIGN_ERROR. Its
 * URL token vouches for the whole request, so every field is as sent by the token's holder.
 */
export function processingResultItem(value: IDataObject): IDataObject {
	const status = optionalText(value, 'Status');
	const message = optionalText(value, 'Message');
	const notifyId = optionalText(value, 'NotifyId');
	const finishedAt = finishedAtOf(jsonField(value, 'FinishedAt'));
	return {
		event: 'processingResult',
		status,
		message,
		notifyId,
		finishedAt,
		relayKey: relayKeyOf('processingResult', [status, notifyId, message, finishedAt]),
	};
}
