// Delivery Receipt: a signed handset delivery report for a message you sent, and its item.
/**
 * Delivery Receipt: a handset delivery report (DLR) for a message you sent, signed over
 * SMS-NotifyId + SMS-Success; the counts, sender and time stamp go under `unverified`.
 */

import type { IDataObject } from 'n8n-workflow';

import type { FormFields } from '../incoming/formBody';
import { badRequest } from '../incoming/rejection';

import type { RelayEventModule } from './event';
import { orNull, required } from './fields/formValues';
import { relayKeyOf } from './fields/relayKey';
import { gatewayTimestamp } from './fields/timestamps';

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

export const deliveryReceipt: RelayEventModule<'deliveryReceipt'> = {
	value: 'deliveryReceipt',
	name: 'Delivery Receipt',
	description: 'Handset delivery report (DLR) for a message you sent',
	selectedByDefault: true,
	claim: (relay) => (relay.authenticatedBy === 'receipt' ? () => receiptItem(relay.fields) : null),
};
