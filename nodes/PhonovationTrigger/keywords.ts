/** The provider's keyphrase for "no keyword matched". */
export const NO_KEYWORD = '*';

/** Splits the Keywords option (`CONFIRM, CANCEL, *`) into upper-case keywords. */
export function parseKeywords(option: string): string[] {
	return option
		.split(',')
		.map((keyword) => keyword.trim().toUpperCase())
		.filter((keyword) => keyword !== '');
}

/** The first word of a message, upper-cased, without trailing punctuation (`Stop.` → `STOP`). */
export function firstWord(text: string): string {
	const word = text.trim().split(/\s+/u)[0] ?? '';
	return word.replace(/\p{P}+$/u, '').toUpperCase();
}

/**
 * Whether an inbound message passes the filter: its `SMS-Keyphrase` or the first word of its
 * content is one of the keywords. `*` matches relays whose keyphrase is `*` (or absent), i.e.
 * that no keyword on the provider's side matched. An empty filter lets everything through.
 */
export function keywordMatches(keywords: string[], keyphrase: string | undefined, content: string): boolean {
	if (keywords.length === 0) return true;
	const phrase = keyphrase?.trim().toUpperCase() ?? '';
	if (keywords.includes(NO_KEYWORD) && (phrase === NO_KEYWORD || phrase === '')) return true;
	const candidates = [phrase, firstWord(content)].filter((c) => c !== '' && c !== NO_KEYWORD);
	return candidates.some((candidate) => keywords.includes(candidate));
}
