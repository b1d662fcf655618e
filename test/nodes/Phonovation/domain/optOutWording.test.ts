import { offersOptOut, SUGGESTED_OPT_OUT_TEXT, withOptOutText } from '../../../../nodes/Phonovation/domain/optOutWording';

describe('opt-out wording', () => {
	it.each([
		['Text STOP to 50123 to opt out'],
		['Sale today. Reply stop to end'],
		['Sale! OPTOUT: text 50123'],
		['Sale. Opt-out any time on our site'],
		['Sale. To unsubscribe, reply UNSUBSCRIBE'],
		['Sale. STOPALL to end'],
	])('"%s" offers a way to opt out', (text) => {
		expect(offersOptOut(text)).toBe(true);
	});

	it.each([['20% off this week!'], ['Nonstop deals all weekend'], ['Call 0501234 today'], ['Unstoppable prices']])(
		'"%s" offers none',
		(text) => {
			expect(offersOptOut(text)).toBe(false);
		},
	);

	it('the suggested Opt-Out Text names STOP and 50123', () => {
		expect(SUGGESTED_OPT_OUT_TEXT).toBe('Text STOP to 50123 to opt out');
		expect(offersOptOut(SUGGESTED_OPT_OUT_TEXT)).toBe(true);
	});

	it.each([
		['appends it on a line of its own', 'Sale today', 'Text STOP to 50123', 'Sale today\nText STOP to 50123'],
		['drops trailing blanks before it', 'Sale today \n', ' Text STOP to 50123 ', 'Sale today\nText STOP to 50123'],
		['leaves a text that already ends with it', 'Sale\nText STOP to 50123', 'Text STOP to 50123', 'Sale\nText STOP to 50123'],
		['leaves it when the text ends with it and a space', 'Sale. Text STOP to 50123 ', 'Text STOP to 50123', 'Sale. Text STOP to 50123 '],
		['adds nothing when the option is empty', 'Sale', '  ', 'Sale'],
		['leaves an empty text empty, to be refused as empty', ' ', 'Text STOP to 50123', ' '],
	])('%s', (_name, text, footer, expected) => {
		expect(withOptOutText(text, footer)).toBe(expected);
	});
});
