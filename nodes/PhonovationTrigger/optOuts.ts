import type { FormRelayEvent } from './events';
import { firstWord } from './keywords';
import { stopWordOf } from './stopWords';

/** How an opt-out arrived: texted to the shared shortcode 50123, or as a reply to your own number. */
export type OptOutRoute = 'shortcode' | 'reply';

export interface OptOut {
	via: OptOutRoute;
	/** The stop word the text is (or, on the shortcode, begins with); null when it is none. */
	keyword: string | null;
}

/** The words the shortcode documents; there a message that begins with one names it. */
const SHORTCODE_KEYWORDS = ['STOP', 'OPTOUT'];

function shortcodeKeyword(text: string): string | null {
	const word = firstWord(text);
	return SHORTCODE_KEYWORDS.includes(word) ? word : null;
}

/**
 * Whether a message is an opt-out. Everything texted to the shortcode is one; a message to your
 * own number is one only when its whole text is a stop word and STOP replies count as opt-outs.
 */
export function optOutOf(
	event: Exclude<FormRelayEvent, 'deliveryReceipt'>,
	text: string,
	{ stopReplies }: { stopReplies: boolean },
): OptOut | null {
	if (event === 'optOut') return { via: 'shortcode', keyword: stopWordOf(text) ?? shortcodeKeyword(text) };
	if (!stopReplies) return null;
	const keyword = stopWordOf(text);
	return keyword === null ? null : { via: 'reply', keyword };
}
