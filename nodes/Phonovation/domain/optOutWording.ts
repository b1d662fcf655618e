/**
 * Ireland's shared opt-out shortcode: texting STOP to it ends marketing from the sender, whatever
 * number or sender ID the campaign came from.
 */
export const OPT_OUT_SHORTCODE = '50123';

/** What the Opt-Out Text option suggests when it is added. */
export const SUGGESTED_OPT_OUT_TEXT = `Text STOP to ${OPT_OUT_SHORTCODE} to opt out`;

/** Wording that tells a recipient how to object: a stop word or the shortcode, in any case. */
const OPT_OUT_WORDING = new RegExp(`\\b(?:STOP(?:ALL)?|OPT[\\s-]?OUT|UNSUBSCRIBE)\\b|\\b${OPT_OUT_SHORTCODE}\\b`, 'i');

/** Whether a text offers a way to opt out (S.I. 336/2011 Reg. 13 asks for one in every marketing text). */
export function offersOptOut(text: string): boolean {
	return OPT_OUT_WORDING.test(text);
}

/**
 * The text with the opt-out text on a line of its own at the end, unless it already ends with it.
 * An empty text stays empty, so it is still refused as empty rather than sent as a bare footer.
 */
export function withOptOutText(text: string, optOutText: string): string {
	const footer = optOutText.trim();
	const body = text.trimEnd();
	if (footer === '' || body === '' || body.endsWith(footer)) return text;
	return `${body}\n${footer}`;
}
