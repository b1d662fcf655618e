// Opt-Out: a signed message that is only a stop word, to the shortcode 50123 or as a STOP reply.
/**
 * Opt-Out: a signed message whose whole text is a stop word, texted to the shortcode 50123 or,
 * when STOP replies count, as a reply to your own number. Never filtered by keyword.
 */

import { stopWordOf } from '../../shared/optOutWords';
import type { FormFields } from '../incoming/formBody';

import type { ClassifySettings, RelayEventModule } from './event';
import { keywordClaim, sentToShortcode } from './message';

/** Where SMS-To (not covered by the signature) says an opt-out was texted: the shortcode 50123 or your own number. */
type OptOutRoute = 'shortcode' | 'reply';

export interface OptOut {
	via: OptOutRoute;
	/** The stop word the whole text is. */
	keyword: string;
}

interface OptOutSettings {
	/** Whether a stop word texted to your own number counts as an opt-out. */
	stopReplies: boolean;
	/** Whether the unsigned SMS-To names the shared opt-out shortcode. */
	toShortcode: boolean;
}

export const SUPPRESSION_HINT =
	'Add this number to your suppression list now and send it no more marketing messages.';

/**
 * Whether a message is an opt-out. The signed text decides: its whole text must be a stop word.
 * The unsigned SMS-To only says which way it came, and can make a stop word an opt-out when
 * STOP replies are off (the shortcode always opts out), never turn other text into one.
 */
export function optOutOf(
	text: string,
	{ stopReplies, toShortcode }: OptOutSettings,
): OptOut | null {
	const keyword = stopWordOf(text);
	if (keyword === null) return null;
	if (toShortcode) return { via: 'shortcode', keyword };
	return stopReplies ? { via: 'reply', keyword } : null;
}

/** The opt-out a message's fields are, or null: read without refusing anything, as a claim must. */
export function optOutIn(fields: FormFields, { stopReplies }: ClassifySettings): OptOut | null {
	return optOutOf(fields.get('SMS-Content') ?? '', {
		stopReplies,
		toShortcode: sentToShortcode(fields),
	});
}

export const optOut: RelayEventModule<'optOut'> = {
	value: 'optOut',
	name: 'Opt-Out',
	description:
		'A message whose whole text is a stop word (STOP, OPTOUT, …), texted to the shared shortcode 50123 or as a reply to your number',
	selectedByDefault: true,
	claim: keywordClaim('optOut', optOutIn, (keyword) => ({
		optOutKeyword: keyword,
		hint: SUPPRESSION_HINT,
	})),
};
