import type { IDataObject } from 'n8n-workflow';

import type { FormRelayEvent } from './events';
import { jsonField } from './events';
import type { FormFields } from './formBody';
import { NO_KEYWORD } from './keywords';
import { networkOf } from './network';
import { optOutOf } from './optOuts';
import { badRequest } from './rejection';
import { finishedAtOf, gatewayTimestamp } from './timestamps';

export const SUPPRESSION_HINT =
	'Add this number to your suppression list now and send it no more marketing messages.';

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

/**
 * An inbound message or opt-out as an output item (without `verified`). A message to the
 * shortcode, or a STOP reply when those count, becomes an opt-out saying which way it came.
 */
export function inboundItem(
	event: Exclude<FormRelayEvent, 'deliveryReceipt'>,
	fields: FormFields,
	settings: { stopReplies: boolean },
): IDataObject {
	const from = required(fields, 'SMS-From');
	if (from.trim() === '') throw badRequest('Empty field SMS-From');
	const text = required(fields, 'SMS-Content');
	const keyphrase = fields.get('SMS-Keyphrase')?.trim();
	const optOut = optOutOf(event, text, settings);
	const item: IDataObject = {
		event: optOut === null ? 'inbound' : 'optOut',
		from,
		to: orNull(fields.get('SMS-To')),
		text,
		keyword: keyphrase === NO_KEYWORD ? null : orNull(keyphrase),
		notifyId: orNull(fields.get('SMS-NotifyId')),
		type: orNull(fields.get('SMS-Type')),
		network: networkOf(fields.get('SMS-Network')) as IDataObject | null,
		receivedAt: gatewayTimestamp(fields.get('SMS-TimeStamp')),
	};
	if (optOut !== null) {
		item.optOutKeyword = optOut.keyword;
		item.via = optOut.via;
		item.hint = SUPPRESSION_HINT;
	}
	return item;
}

/** A delivery receipt as an output item (without `verified`). */
export function receiptItem(fields: FormFields): IDataObject {
	const notifyId = required(fields, 'SMS-NotifyId');
	return {
		event: 'deliveryReceipt',
		notifyId: orNull(notifyId),
		delivered: delivered(required(fields, 'SMS-Success')),
		to: orNull(fields.get('SMS-To')),
		from: orNull(fields.get('SMS-From')),
		totalToSend: count(fields, 'SMS-TotalToSend'),
		totalSent: count(fields, 'SMS-TotalSent'),
		totalFailed: count(fields, 'SMS-TotalFailed'),
		receivedAt: gatewayTimestamp(fields.get('SMS-TimeStamp')),
	};
}

function optionalText(value: IDataObject, name: string): string | null {
	const field = jsonField(value, name);
	if (field === undefined || field === null || field === '') return null;
	if (typeof field === 'number' && Number.isFinite(field)) return String(field);
	if (typeof field !== 'string') throw badRequest(`${name} is not a string`);
	return field;
}

/** A V2 processing result (JSON) as an output item; `NotifyId` is absent on CAMPAIGN_ERROR. */
export function processingResultItem(value: IDataObject): IDataObject {
	return {
		event: 'processingResult',
		status: optionalText(value, 'Status'),
		message: optionalText(value, 'Message'),
		notifyId: optionalText(value, 'NotifyId'),
		finishedAt: finishedAtOf(jsonField(value, 'FinishedAt')),
	};
}
