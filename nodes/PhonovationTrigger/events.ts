import type { IDataObject } from 'n8n-workflow';

import type { FormFields } from './formBody';
import { badRequest } from './rejection';

export type RelayEvent = 'deliveryReceipt' | 'inbound' | 'optOut' | 'processingResult';

export type FormRelayEvent = Exclude<RelayEvent, 'processingResult'>;

/**
 * Which signature recipe a form relay carries: a receipt is signed over NotifyId + Success, a
 * message (inbound or opt-out) over From + Content.
 */
export type FormRecipe = 'receipt' | 'message';

/** Looks a JSON key up case-insensitively (the provider sends PascalCase: `Status`, `NotifyId`). */
export function jsonField(value: IDataObject, name: string): unknown {
	if (Object.hasOwn(value, name)) return value[name];
	const key = Object.keys(value).find((k) => k.toLowerCase() === name.toLowerCase());
	return key === undefined ? undefined : value[key];
}

/**
 * Tells a delivery receipt from a message by the signed fields it carries (SMS-Success or
 * SMS-Content), never by the unsigned SMS-Type alone: a relay carrying both is refused, so one
 * signed field set cannot be read under the other recipe. SMS-Type=Notification without either
 * is taken as a receipt, which then fails for its missing fields.
 */
export function formRecipeOf(fields: FormFields): FormRecipe {
	const success = fields.has('SMS-Success');
	const content = fields.has('SMS-Content');
	if (success && content) throw badRequest('A relay carries both SMS-Success (receipt) and SMS-Content (message)');
	if (success) return 'receipt';
	if (content) return 'message';
	if (fields.get('SMS-Type')?.trim().toLowerCase() === 'notification') return 'receipt';
	if (fields.has('SMS-From')) return 'message';
	throw badRequest(
		'Not a Phonovation relay: expected SMS-From and SMS-Content (inbound) or SMS-NotifyId and SMS-Success (receipt)',
	);
}

/** A processing result is a JSON object with a `Status`. */
export function assertProcessingResult(value: IDataObject): void {
	if (typeof jsonField(value, 'Status') !== 'string') {
		throw badRequest('Not a Phonovation processing result: expected a JSON object with a Status');
	}
}
