import { stopWordOf } from '../shared/optOutWords';

/** Where SMS-To (not covered by the signature) says an opt-out was texted: the shortcode 50123 or your own number. */
export type OptOutRoute = 'shortcode' | 'reply';

export interface OptOut {
	via: OptOutRoute;
	/** The stop word the whole text is. */
	keyword: string;
}

export interface OptOutSettings {
	/** Whether a stop word texted to your own number counts as an opt-out. */
	stopReplies: boolean;
	/** Whether the unsigned SMS-To names the shared opt-out shortcode. */
	toShortcode: boolean;
}

/**
 * Whether a message is an opt-out. The signed text decides: its whole text must be a stop word.
 * The unsigned SMS-To only says which way it came, and can make a stop word an opt-out when
 * STOP replies are off (the shortcode always opts out), never turn other text into one.
 */
export function optOutOf(text: string, { stopReplies, toShortcode }: OptOutSettings): OptOut | null {
	const keyword = stopWordOf(text);
	if (keyword === null) return null;
	if (toShortcode) return { via: 'shortcode', keyword };
	return stopReplies ? { via: 'reply', keyword } : null;
}
