import fc from 'fast-check';
import { SegmentedMessage } from 'sms-segments-calculator';

import { analyseText } from '../../../../nodes/Phonovation/domain/gsmSegments';

const GSM = ['a', 'Z', ' ', '9', '.', '\n', '\r\n', 'é', 'Ø', '@'];
const EXTENSION = ['€', '[', '{', '^', '~'];
const UNICODE_LETTERS = ['á', 'ó', 'Ú', '’', 'Ω', 'ł', 'e\u0301', 'a\u0301\u0323'];
/** Whole emoji sequences: flags, ZWJ families and jobs, skin tones, variation selectors, keycaps, a tag flag. */
const EMOJI_SEQUENCES = [
	'😀',
	'👍🏿',
	'🇮🇪',
	'🇫🇷',
	'🇮',
	'👨\u200D👩\u200D👧',
	'👩\u200D💻',
	'👩🏽\u200D🚀',
	'🏳️\u200D🌈',
	'#️⃣',
	'☺️',
	'❤️',
	'🏴󠁧󠁢󠁳󠁣󠁴󠁿',
];

/**
 * Texts built from whole graphemes. sms-segments-calculator splits graphemes with grapheme-splitter,
 * whose rules predate Unicode 11: for a lone joiner or skin tone, and for ZWJ sequences newer than its
 * data, it cuts where today's rules (Intl.Segmenter) do not. Those cases are pinned by hand below.
 */
const texts = fc
	.tuple(
		fc.constantFrom(
			GSM.concat(EXTENSION),
			GSM.concat(EXTENSION, UNICODE_LETTERS, EMOJI_SEQUENCES),
			GSM.concat(EMOJI_SEQUENCES),
		),
		// Empty text bills 0 parts here, 1 by the oracle: see gsmSegments.test.ts.
		fc.integer({ min: 1, max: 240 }),
	)
	.chain(([pool, length]) =>
		fc.array(fc.constantFrom(...pool), { minLength: length, maxLength: length }),
	)
	.map((pieces) => pieces.join(''));

function oracle(text: string) {
	const message = new SegmentedMessage(text);
	return {
		encoding: message.encodingName,
		segments: message.segmentsCount,
		units: message.messageSize / (message.encodingName === 'GSM-7' ? 7 : 16),
		characters: message.numberOfUnicodeScalars,
		unicodeCharacters: [...new Set(message.getNonGsmCharacters())],
	};
}

describe('analyseText against sms-segments-calculator on generated texts with emoji sequences', () => {
	it('agrees on encoding, parts, units, characters and the graphemes that forced Unicode', () => {
		fc.assert(
			fc.property(texts, (text) => {
				const { encoding, segments, units, characters, unicodeCharacters } = analyseText(text);
				expect({ text, encoding, segments, units, characters, unicodeCharacters }).toEqual({
					text,
					...oracle(text),
				});
			}),
			{ seed: 20_260_612, numRuns: 300 },
		);
	});
});

describe('kept disagreements: graphemes the oracle splits with older Unicode rules', () => {
	const fire = '❤️\u200D🔥'; // heart on fire, Unicode 13.1: 5 UTF-16 units, one grapheme on today's handsets
	const holdingHands = '🧑\u200D🤝\u200D🧑'; // Unicode 12: 8 units, one grapheme

	it.each([
		{
			name: "64×'á' + heart on fire + 64×'á'",
			text: 'á'.repeat(64) + fire + 'á'.repeat(64),
			ours: 3,
			theirs: 2,
		},
		{
			name: "61×'á' + people holding hands + 64×'á'",
			text: 'á'.repeat(61) + holdingHands + 'á'.repeat(64),
			ours: 3,
			theirs: 2,
		},
	])(
		'$name: one emoji, never cut in two ($ours parts; the oracle cuts it and says $theirs)',
		({ text, ours, theirs }) => {
			expect(new SegmentedMessage(text).segmentsCount).toBe(theirs);
			expect(analyseText(text).segments).toBe(ours);
		},
	);

	it('lists a newer ZWJ sequence as one character', () => {
		expect(analyseText(`Hi ${fire} ${holdingHands}`).unicodeCharacters).toEqual([
			fire,
			holdingHands,
		]);
	});
});
