// A reply's text cut to the parts a user pays for at most: pure, imports nothing from n8n.
import { analyseText } from '../../../domain/gsmSegments';

// Three dots, not "…": that one character would make a GSM text UCS-2 (70 characters a part, not 160).
const ELLIPSIS = '...';

/** The text as sent: whole when it fits `maxParts`, else cut at a word and ended with "...". */
export function cutToParts(text: string, maxParts: number): string {
	const trimmed = text.trim();
	if (analyseText(trimmed).segments <= maxParts) return trimmed;
	const chars = Array.from(trimmed);
	const fits = (n: number) =>
		analyseText(chars.slice(0, n).join('') + ELLIPSIS).segments <= maxParts;
	// The longest prefix that fits with its ellipsis: fits() only turns false as n grows.
	let low = 0;
	let high = chars.length;
	while (low < high) {
		const mid = Math.ceil((low + high) / 2);
		if (fits(mid)) low = mid;
		else high = mid - 1;
	}
	const kept = chars.slice(0, low).join('');
	const atWord = kept.replace(/\s+\S*$/, '');
	return `${(atWord.length >= kept.length * 0.8 ? atWord : kept).trimEnd()}${ELLIPSIS}`;
}
