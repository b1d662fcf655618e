// Which signature a form relay carries (receipt or message), told by the signed fields it holds.
/**
 * Which signature a form relay carries, told by the signed fields it holds: a receipt is signed
 * over NotifyId + Success, a message (inbound or opt-out) over From + Content.
 */

import type { FormFields } from '../incoming/formBody';
import { badRequest } from '../incoming/rejection';

export type FormRecipe = 'receipt' | 'message';

/**
 * Tells a delivery receipt from a message by the signed fields it carries (SMS-Success or
 * SMS-Content), never by the unsigned SMS-Type alone: a relay carrying both is refused, so one
 * signed field set cannot be read under the other recipe. SMS-Type=Notification without either
 * is taken as a receipt, which then fails for its missing fields.
 */
export function formRecipeOf(fields: FormFields): FormRecipe {
	const success = fields.has('SMS-Success');
	const content = fields.has('SMS-Content');
	if (success && content)
		throw badRequest('A relay carries both SMS-Success (receipt) and SMS-Content (message)');
	if (success) return 'receipt';
	if (content) return 'message';
	if (fields.get('SMS-Type')?.trim().toLowerCase() === 'notification') return 'receipt';
	if (fields.has('SMS-From')) return 'message';
	throw badRequest(
		'Not a Phonovation relay: expected SMS-From and SMS-Content (inbound) or SMS-NotifyId and SMS-Success (receipt)',
	);
}
