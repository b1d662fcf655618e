import { SegmentedMessage } from 'sms-segments-calculator';

import { analyseText, isGsm7 } from '../../../../nodes/Phonovation/domain/gsmSegments';

/** Twilio's segment calculator is the oracle; its encoding names are the same as ours. */
function oracle(text: string) {
	const message = new SegmentedMessage(text);
	const encoding = message.encodingName;
	return {
		encoding,
		segments: message.segmentsCount,
		// Bits of text without the concatenation headers: 7 per septet, 16 per UCS-2 code unit.
		units: message.messageSize / (encoding === 'GSM-7' ? 7 : 16),
		characters: message.numberOfUnicodeScalars,
		// Whole graphemes, each once: a flag or an emoji sequence is one entry.
		unicodeCharacters: [...new Set(message.getNonGsmCharacters())],
	};
}

const a = (n: number) => 'a'.repeat(n);
const EMOJI = '😀';
const IRISH_FLAG = '🇮🇪';
/** Man, woman, girl joined by zero-width joiners: 5 code points, 8 UTF-16 units, one grapheme. */
const FAMILY = '👨\u200D👩\u200D👧';
const THUMBS_UP_DARK = '👍🏿';

interface Case {
	name: string;
	text: string;
	/** Counted by hand from how the text is built. */
	characters: number;
	units: number;
}

const CASES: Case[] = [
	{ name: 'plain ASCII, 160 (one part)', text: a(160), characters: 160, units: 160 },
	{ name: 'plain ASCII, 161 (two parts)', text: a(161), characters: 161, units: 161 },
	{ name: 'plain ASCII, 306 (two full parts)', text: a(306), characters: 306, units: 306 },
	{ name: 'plain ASCII, 307 (three parts)', text: a(307), characters: 307, units: 307 },
	{ name: '€ ×80 (escape pairs fill 160)', text: '€'.repeat(80), characters: 80, units: 160 },
	{ name: '€ ×81 (162 septets)', text: '€'.repeat(81), characters: 81, units: 162 },
	{ name: "152×'a' + €", text: a(152) + '€', characters: 153, units: 154 },
	{ name: "153×'a' + €", text: a(153) + '€', characters: 154, units: 155 },
	{ name: "159×'a' + € (161 septets)", text: a(159) + '€', characters: 160, units: 161 },
	{
		name: "152×'a' + € + 152×'a' (escape pair pushed to part 2)",
		text: a(152) + '€' + a(152),
		characters: 305,
		units: 306,
	},
	{ name: 'all extension characters', text: '^{}\\[~]|€\f', characters: 10, units: 20 },
	{
		name: 'Irish fada: "Fáilte! Reply STOP"',
		text: 'Fáilte! Reply STOP',
		characters: 18,
		units: 18,
	},
	{ name: 'á ×70', text: 'á'.repeat(70), characters: 70, units: 70 },
	{ name: 'á ×71', text: 'á'.repeat(71), characters: 71, units: 71 },
	{ name: 'é ×70 (é is GSM)', text: 'é'.repeat(70), characters: 70, units: 70 },
	{ name: 'curly apostrophe ’', text: 'It’s ready, collect it today', characters: 28, units: 28 },
	{ name: 'emoji ×35 (70 code units)', text: EMOJI.repeat(35), characters: 35, units: 70 },
	{
		name: 'emoji ×36 (a pair never straddles parts)',
		text: EMOJI.repeat(36),
		characters: 36,
		units: 72,
	},
	{
		name: "66×'a' + emoji + 66×'a' (pair pushed past the 67 boundary)",
		text: a(66) + EMOJI + a(66),
		characters: 133,
		units: 134,
	},
	{ name: "66×'a' + emoji (68 units, one part)", text: a(66) + EMOJI, characters: 67, units: 68 },
	{ name: 'combining accent e + U+0301', text: 'Cafe\u0301 open', characters: 10, units: 10 },
	{ name: 'CRLF line breaks', text: 'Line 1\r\nLine 2\r\n', characters: 16, units: 16 },
	{ name: '2000 GSM characters', text: a(2000), characters: 2000, units: 2000 },
	{
		name: '2000 characters with € every 10th',
		text: (a(9) + '€').repeat(200),
		characters: 2000,
		units: 2200,
	},
	{ name: '2000 fadas', text: 'á'.repeat(2000), characters: 2000, units: 2000 },
	{ name: '1000 emoji (2000 code units)', text: EMOJI.repeat(1000), characters: 1000, units: 2000 },
	{
		name: "64×'á' + Irish flag + 64×'á' (the flag never straddles the 67 boundary)",
		text: 'á'.repeat(64) + IRISH_FLAG + 'á'.repeat(64),
		characters: 130,
		units: 132,
	},
	{
		name: "65×'á' + family emoji (ZWJ sequence of 8 units pushed whole to part 2)",
		text: 'á'.repeat(65) + FAMILY,
		characters: 70,
		units: 73,
	},
	{
		name: 'thumbs up with a skin tone ×18',
		text: THUMBS_UP_DARK.repeat(18),
		characters: 36,
		units: 72,
	},
	{ name: 'heart with variation selector ×36', text: '❤️'.repeat(36), characters: 72, units: 72 },
	{
		name: 'combining accents stacked on one letter ×30',
		text: 'a\u0301\u0323'.repeat(30),
		characters: 90,
		units: 90,
	},
];

describe('analyseText agrees with sms-segments-calculator', () => {
	it.each(CASES)('$name', ({ text, characters, units }) => {
		const expected = oracle(text);

		const result = analyseText(text);

		expect(result.encoding).toBe(expected.encoding);
		expect(result.segments).toBe(expected.segments);
		expect(result.unicodeCharacters).toEqual(expected.unicodeCharacters);
		expect(result.characters).toBe(characters);
		expect(result.characters).toBe(expected.characters);
		expect(result.units).toBe(units);
		expect(result.units).toBe(expected.units);
		expect(isGsm7(text)).toBe(expected.encoding === 'GSM-7');
	});

	it('agrees on 300 pseudo-random texts mixing GSM, extension and Unicode characters', () => {
		// Characters that never join into multi-code-point graphemes, so the oracle's grapheme view equals ours.
		const alphabet = [
			'a',
			'Z',
			' ',
			'9',
			'€',
			'[',
			'\f',
			'é',
			'Ø',
			'\r',
			'\n',
			'á',
			'’',
			'Ω',
			EMOJI,
			'ó',
		];
		const gsmOnly = alphabet.slice(0, 11);
		let seed = 20240611;
		const next = () => (seed = (seed * 48271) % 2147483647); // MINSTD, reproducible
		for (let round = 0; round < 300; round++) {
			const pool = round % 3 === 0 ? alphabet : gsmOnly;
			const text = Array.from(
				{ length: 1 + (next() % 400) },
				() => pool[next() % pool.length],
			).join('');
			const expected = oracle(text);
			const result = analyseText(text);
			expect({
				text,
				encoding: result.encoding,
				segments: result.segments,
				units: result.units,
			}).toEqual({
				text,
				encoding: expected.encoding,
				segments: expected.segments,
				units: expected.units,
			});
			expect(result.unicodeCharacters).toEqual(expected.unicodeCharacters);
		}
	});
});

describe('analyseText details the oracle does not cover', () => {
	it('reports nothing to bill for empty text', () => {
		expect(analyseText('')).toEqual({
			encoding: 'GSM-7',
			characters: 0,
			units: 0,
			segments: 0,
			perSegment: 160,
			unicodeCharacters: [],
		});
	});

	it.each([
		{ text: a(160), perSegment: 160 },
		{ text: a(161), perSegment: 153 },
		{ text: 'á'.repeat(70), perSegment: 70 },
		{ text: 'á'.repeat(71), perSegment: 67 },
	])('capacity per part is $perSegment', ({ text, perSegment }) => {
		expect(analyseText(text).perSegment).toBe(perSegment);
	});

	it('lists whole graphemes: flags, ZWJ sequences and accented letters, never a bare joiner or half a flag', () => {
		const text = `Fáilte ${IRISH_FLAG} ${FAMILY} Cafe\u0301 ${THUMBS_UP_DARK} ${IRISH_FLAG}`;
		expect(analyseText(text).unicodeCharacters).toEqual([
			'á',
			IRISH_FLAG,
			FAMILY,
			'e\u0301',
			THUMBS_UP_DARK,
		]);
	});

	it('lists each character that forced Unicode once, in order of appearance', () => {
		expect(analyseText('Dia duit Seán, fáilte ó Éire ’26 😀 á ó').unicodeCharacters).toEqual([
			'á',
			'ó',
			'’',
			EMOJI,
		]);
	});
});

describe('isGsm7', () => {
	it('matches the oracle for every character from U+0000 to U+24FF', () => {
		const disagreements: string[] = [];
		for (let code = 0; code <= 0x24ff; code++) {
			const char = String.fromCharCode(code);
			if (isGsm7(char) !== (new SegmentedMessage(char).encodingName === 'GSM-7'))
				disagreements.push(char);
		}
		expect(disagreements).toEqual([]);
	});

	it('holds the accented letters of GSM 03.38 but not the Irish fadas á í ó ú', () => {
		expect(isGsm7('éèùìòÇØøÅåÄÖÑÜäöñüßÆæÉ£¥§¿¡ΔΦΓΛΩΠΨΣΘΞ')).toBe(true);
		for (const fada of ['á', 'í', 'ó', 'ú', 'Á', 'Í', 'Ó', 'Ú']) expect(isGsm7(fada)).toBe(false);
	});

	it('is true for empty text and false for the bare escape code', () => {
		expect(isGsm7('')).toBe(true);
		expect(isGsm7('\u001b')).toBe(false);
	});
});
