import type { IDataObject } from 'n8n-workflow';

import type { FormFields } from './formBody';
import { badRequest } from './rejection';

export type RelayEvent = 'deliveryReceipt' | 'inbound' | 'optOut' | 'processingResult';

export type FormRelayEvent = Exclude<RelayEvent, 'processingResult'>;

/** Every customer's opt-outs are texted to this shared shortcode and relayed with it as SMS-To. */
export const OPT_OUT_SHORTCODE = '50123';

/** Looks a JSON key up case-insensitively (the provider sends PascalCase: `Status`, `NotifyId`). */
export function jsonField(value: IDataObject, name: string): unknown {
	if (Object.hasOwn(value, name)) return value[name];
	const key = Object.keys(value).find((k) => k.toLowerCase() === name.toLowerCase());
	return key === undefined ? undefined : value[key];
}

/** Tells a delivery receipt (`SMS-Type=Notification`) from an inbound message or an opt-out. */
export function formEventOf(fields: FormFields): FormRelayEvent {
	if (fields.get('SMS-Type')?.trim().toLowerCase() === 'notification') return 'deliveryReceipt';
	if (fields.has('SMS-From') || fields.has('SMS-Content')) {
		return fields.get('SMS-To')?.trim() === OPT_OUT_SHORTCODE ? 'optOut' : 'inbound';
	}
	throw badRequest(
		'Not a Phonovation relay: expected SMS-From and SMS-Content (inbound) or SMS-Type=Notification (receipt)',
	);
}

/** A processing result is a JSON object with a `Status`. */
export function assertProcessingResult(value: IDataObject): void {
	if (typeof jsonField(value, 'Status') !== 'string') {
		throw badRequest('Not a Phonovation processing result: expected a JSON object with a Status');
	}
}
