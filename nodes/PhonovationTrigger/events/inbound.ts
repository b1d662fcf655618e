// Inbound Message: a signed text to your number that is no opt-out, filtered by its first word.
/**
 * Inbound Message: a signed message that is not an opt-out or opt-in (a reply or other text to your
 * number), let through only when its first word passes the Keywords filter.
 */

import type { RelayEventModule } from './event';
import { keywordMatches } from './fields/keywords';
import { sentToShortcode, signedMessageItem } from './message';
import { optInIn } from './optIn';
import { optOutIn } from './optOut';

/** Said on a message whose unsigned SMS-To is the shortcode but whose signed text is not a stop word. */
export const SHORTCODE_TEXT_HINT =
	'Texted to the opt-out shortcode 50123 (so SMS-To says; the signature does not cover it), but the text is not STOP or OPTOUT alone, so it is not treated as an opt-out. Check whether the sender meant to opt out.';

export const inbound: RelayEventModule<'inbound'> = {
	value: 'inbound',
	name: 'Inbound Message',
	description: 'A reply or other message texted to your number',
	selectedByDefault: true,
	claim(relay, settings) {
		if (relay.authenticatedBy !== 'message') return null;
		const { fields } = relay;
		if (optOutIn(fields, settings) !== null || optInIn(fields, settings) !== null) return null;
		return () =>
			signedMessageItem(fields, {
				event: 'inbound',
				own: sentToShortcode(fields) ? { hint: SHORTCODE_TEXT_HINT } : {},
			});
	},
	ignores: (item, settings) =>
		keywordMatches(settings.keywords, String(item.text)) ? null : 'keyword not matched',
};
