// How a text is encoded and billed: GSM-7 or UCS-2, its characters, and the parts it is sent as.
type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface TextAnalysis {
	encoding: SmsEncoding;
	/** User-visible characters (Unicode code points). */
	characters: number;
	/** Septets for GSM-7 (extension characters count 2), UTF-16 code units for UCS-2. */
	units: number;
	/** Parts billed; 0 for empty text. */
	segments: number;
	/** The capacity that applied: 160/153 for GSM-7, 70/67 for UCS-2. */
	perSegment: number;
	/**
	 * Distinct characters (whole graphemes: a flag, an emoji sequence) that forced UCS-2, in order of first appearance
	 * ([] for GSM-7).
	 */
	unicodeCharacters: string[];
}

/**
 * GSM 03.38 default alphabet (3GPP TS 23.038 §6.2.1), in code order 0x00–0x7F.
 * 0x1B is the escape to the extension table, not a character of its own, so it is left out.
 * 0x09 is Ç (capital C cedilla) as in the standard; 0x24 is the currency sign ¤, $ sits at 0x02.
 */
const GSM7_BASIC =
	'@£$¥èéùìòÇ\nØø\rÅå' +
	'Δ_ΦΓΛΩΠΨΣΘΞ' /* 0x1B ESC */ +
	'ÆæßÉ' +
	' !"#¤%&\'()*+,-./' +
	'0123456789:;<=>?' +
	'¡ABCDEFGHIJKLMNO' +
	'PQRSTUVWXYZÄÖÑÜ§' +
	'¿abcdefghijklmno' +
	'pqrstuvwxyzäöñüà';

/** GSM 03.38 extension table (3GPP TS 23.038 §6.2.1.1): each costs ESC + one septet. */
const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

const GSM7_CAPACITY = { single: 160, multipart: 153 };
// A concatenated part gives 6 octets to the User Data Header: 140 - 6 = 134 octets = 153 septets or 67 UCS-2 units.
const UCS2_CAPACITY = { single: 70, multipart: 67 };

function isGsm7Character(char: string): boolean {
	return BASIC.has(char) || EXTENSION.has(char);
}

export function isGsm7(text: string): boolean {
	for (const char of text) if (!isGsm7Character(char)) return false;
	return true;
}

/** Packs indivisible sizes into parts; a multi-byte character never straddles two parts. */
function countParts(
	sizes: number[],
	total: number,
	capacity: { single: number; multipart: number },
): number {
	if (total === 0) return 0;
	if (total <= capacity.single) return 1;
	let parts = 1;
	let used = 0;
	for (const size of sizes) {
		if (used + size > capacity.multipart) {
			parts++;
			used = 0;
		}
		used += size;
	}
	return parts;
}

/** Segments user-perceived characters: a flag, an emoji ZWJ sequence or a letter with its accents is one. */
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * UCS-2 text as indivisible pieces: a grapheme never straddles two parts, as handsets would show it
 * broken. CRLF is the one grapheme made of GSM characters; it is counted as the two it encodes to.
 */
function graphemesOf(text: string): string[] {
	const pieces: string[] = [];
	for (const { segment } of GRAPHEMES.segment(text)) {
		if (segment === '\r\n') pieces.push('\r', '\n');
		else pieces.push(segment);
	}
	return pieces;
}

function analysis(
	encoding: SmsEncoding,
	characters: number,
	sizes: number[],
	unicodeCharacters: string[],
): TextAnalysis {
	const units = sizes.reduce((sum, size) => sum + size, 0);
	const capacity = encoding === 'GSM-7' ? GSM7_CAPACITY : UCS2_CAPACITY;
	const segments = countParts(sizes, units, capacity);
	return {
		encoding,
		characters,
		units,
		segments,
		perSegment: segments > 1 ? capacity.multipart : capacity.single,
		unicodeCharacters,
	};
}

export function analyseText(text: string): TextAnalysis {
	const characters = Array.from(text);
	// Plain GSM text (most messages) needs no grapheme segmentation: every character is one septet or an escape pair.
	if (characters.every(isGsm7Character)) {
		return analysis(
			'GSM-7',
			characters.length,
			characters.map((char) => (EXTENSION.has(char) ? 2 : 1)),
			[],
		);
	}
	// UCS-2: each grapheme costs its UTF-16 code units (a character outside the BMP is a surrogate pair).
	const graphemes = graphemesOf(text);
	const unicodeCharacters = [
		...new Set(graphemes.filter((grapheme) => !isGsm7Character(grapheme))),
	];
	return analysis(
		'UCS-2',
		characters.length,
		graphemes.map((grapheme) => grapheme.length),
		unicodeCharacters,
	);
}
