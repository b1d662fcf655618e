// Opt-out words for both nodes: the shortcode 50123, the wording marketing needs, the stop words.
/**
 * Opt-out words, for both nodes and side by side: the shared shortcode 50123, the wording the
 * action node appends to marketing texts and looks for in them, and the stop words the trigger
 * recognises in a reply. Pure: imports nothing from n8n.
 */

/**
 * Ireland's shared opt-out shortcode: texting STOP to it ends marketing from the sender, whatever
 * number or sender ID the campaign came from. Every customer's opt-outs are texted to it and
 * relayed with it as SMS-To.
 */
export const OPT_OUT_SHORTCODE = '50123';

// Sending: the wording a marketing text offers.

/** What the Opt-Out Text option suggests when it is added. */
export const SUGGESTED_OPT_OUT_TEXT = `Text STOP to ${OPT_OUT_SHORTCODE} to opt out`;

/** Wording that tells a recipient how to object: a stop word or the shortcode, in any case. */
const OPT_OUT_WORDING = new RegExp(
	`\\b(?:STOP(?:ALL)?|OPT[\\s-]?OUT|UNSUBSCRIBE)\\b|\\b${OPT_OUT_SHORTCODE}\\b`,
	'i',
);

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

// Receiving: the stop words a reply may consist of.

/**
 * The words that end marketing when a recipient texts nothing else: the FCC's 2024 list (STOP,
 * QUIT, END, REVOKE, OPT OUT, CANCEL, UNSUBSCRIBE), OPTOUT as the shortcode 50123 takes it, and
 * STOPALL as carriers use it. English only, like the shortcode and what Irish recipients expect.
 */
const STOP_WORDS = [
	'STOP',
	'STOPALL',
	'UNSUBSCRIBE',
	'CANCEL',
	'END',
	'QUIT',
	'REVOKE',
	'OPTOUT',
	'OPT OUT',
] as const;

type StopWord = (typeof STOP_WORDS)[number];

const BY_TEXT = new Map<string, StopWord>(STOP_WORDS.map((word) => [word, word]));

/**
 * What may surround the word: white space, punctuation, symbols (emoji are symbols), marks and
 * format characters (emoji variation selectors and joiners). Digits and letters may not.
 * Tested one code point at a time, so trimming is linear whatever the text holds.
 */
const SURROUNDING_CHAR = /^[\s\p{P}\p{S}\p{M}\p{Cf}]$/u;

/** The text without what surrounds the word, found by walking in from each end once. */
function trimSurrounding(text: string): string {
	const chars = Array.from(text);
	let start = 0;
	let end = chars.length;
	while (start < end && SURROUNDING_CHAR.test(chars[start])) start++;
	while (end > start && SURROUNDING_CHAR.test(chars[end - 1])) end--;
	return chars.slice(start, end).join('');
}

/**
 * A reply as the one word (or phrase) it is: compatibility forms folded (NFKC), spaces,
 * punctuation and emoji around it dropped, in capitals. Stop words and answers are read from it.
 */
export function wholeReply(text: string): string {
	return trimSurrounding(text.normalize('NFKC')).toUpperCase();
}

/** "OPT OUT" may also be written with a hyphen or several spaces ("opt-out", "Opt  Out"). */
const OPT_OUT_GAP = /^OPT[\s\p{Pd}]+OUT$/u;

/**
 * The stop word a message consists of, or null. The whole text must be one stop word: case is
 * ignored, and so are spaces, punctuation and emoji around it ("Stop." and "STOP 🛑" are;
 * "stop it", "STOP 12345", "S T O P" and "nonstop" are not). Compatibility forms such as
 * full-width letters count as the letters they stand for.
 */
export function stopWordOf(text: string): StopWord | null {
	const word = wholeReply(text);
	if (OPT_OUT_GAP.test(word)) return 'OPT OUT';
	return BY_TEXT.get(word) ?? null;
}
