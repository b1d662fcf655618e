// The Keywords filter: the option read, a text's first word, and whether a message passes.
/**
 * Keywords: the Keywords option, a text's first word without trailing punctuation, and whether
 * an inbound message passes the filter.
 */

/** The provider's keyphrase for "no keyword matched". */
export const NO_KEYWORD = '*';

/** Splits the Keywords option (`CONFIRM, CANCEL, *`) into upper-case keywords. */
export function parseKeywords(option: string): string[] {
	return option
		.split(',')
		.map((keyword) => keyword.trim().toUpperCase())
		.filter((keyword) => keyword !== '');
}

const PUNCTUATION_CHAR = /^\p{P}$/u;

/** The first word of a message, upper-cased, without trailing punctuation (`Stop.` → `STOP`). */
export function firstWord(text: string): string {
	// One match from the first non-space; each trailing mark is tested once (linear time).
	const chars = Array.from(/\S+/u.exec(text)?.[0] ?? '');
	let end = chars.length;
	while (end > 0 && PUNCTUATION_CHAR.test(chars[end - 1])) end--;
	return chars.slice(0, end).join('').toUpperCase();
}

/**
 * Whether an inbound message passes the filter: the first word of its text, which the signature
 * covers, is one of the keywords. `*` matches a message whose first word is none of them. The
 * provider's SMS-Keyphrase is not signed, so it never decides. An empty filter lets everything through.
 */
export function keywordMatches(keywords: string[], content: string): boolean {
	if (keywords.length === 0) return true;
	const word = firstWord(content);
	if (word !== '' && keywords.includes(word)) return true;
	return keywords.includes(NO_KEYWORD);
}
