// Opt-In: a signed message that is only a start word (START, UNSTOP, SUBSCRIBE).
/**
 * Opt-In: a signed message whose whole text is a start word, texted to the shortcode 50123 or to
 * your number, when the trigger's Events include it. The person asks to be texted again after an
 * opt-out; whether to honour it is the inbox's call (Deliver Reply honours a start word's signed
 * text once: a copy or a replay of it changes nothing). Without the event selected, a START is an
 * Inbound Message, as before the event existed.
 */

import { START_WORDS_TEXT, startWordOf } from '../../shared/optInWords';
import type { FormFields } from '../incoming/formBody';

import type { ClassifySettings, RelayEventModule } from './event';
import { keywordClaim, sentToShortcode } from './message';

export interface OptIn {
	/** Where the unsigned SMS-To says it was texted. */
	via: 'shortcode' | 'reply';
	/** The start word the whole text is. */
	keyword: string;
}

export const OPT_IN_HINT =
	'The person asks to be texted again. Honour it once (the inbox does: Deliver Reply says optIn.honoured) and remove the number from your suppression list; the signature covers only the number and the text, so a copy of an earlier START must change nothing.';

/** The opt-in a message's fields are, or null: read without refusing anything, as a claim must. */
export function optInIn(fields: FormFields, { optIns }: ClassifySettings): OptIn | null {
	if (!optIns) return null;
	const keyword = startWordOf(fields.get('SMS-Content') ?? '');
	if (keyword === null) return null;
	return { via: sentToShortcode(fields) ? 'shortcode' : 'reply', keyword };
}

export const optIn: RelayEventModule<'optIn'> = {
	value: 'optIn',
	name: 'Opt-In',
	description: `A message whose whole text is a start word (${START_WORDS_TEXT}), texted to the shortcode 50123 or to your number: the person asks to be texted again`,
	// Off for a new trigger: a trigger saved with the default Events keeps START as an Inbound Message.
	selectedByDefault: false,
	claim: keywordClaim('optIn', optInIn, (keyword) => ({
		optInKeyword: keyword,
		hint: OPT_IN_HINT,
	})),
};
