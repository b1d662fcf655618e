import {
	offersOptOut,
	stopWordOf,
	SUGGESTED_OPT_OUT_TEXT,
	withOptOutText,
} from '../../../nodes/shared/optOutWords';

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

	it.each([
		['20% off this week!'],
		['Nonstop deals all weekend'],
		['Call 0501234 today'],
		['Unstoppable prices'],
	])('"%s" offers none', (text) => {
		expect(offersOptOut(text)).toBe(false);
	});

	it('the suggested Opt-Out Text names STOP and 50123', () => {
		expect(SUGGESTED_OPT_OUT_TEXT).toBe('Text STOP to 50123 to opt out');
		expect(offersOptOut(SUGGESTED_OPT_OUT_TEXT)).toBe(true);
	});

	it.each([
		[
			'appends it on a line of its own',
			'Sale today',
			'Text STOP to 50123',
			'Sale today\nText STOP to 50123',
		],
		[
			'drops trailing blanks before it',
			'Sale today \n',
			' Text STOP to 50123 ',
			'Sale today\nText STOP to 50123',
		],
		[
			'leaves a text that already ends with it',
			'Sale\nText STOP to 50123',
			'Text STOP to 50123',
			'Sale\nText STOP to 50123',
		],
		[
			'leaves it when the text ends with it and a space',
			'Sale. Text STOP to 50123 ',
			'Text STOP to 50123',
			'Sale. Text STOP to 50123 ',
		],
		['adds nothing when the option is empty', 'Sale', '  ', 'Sale'],
		['leaves an empty text empty, to be refused as empty', ' ', 'Text STOP to 50123', ' '],
	])('%s', (_name, text, footer, expected) => {
		expect(withOptOutText(text, footer)).toBe(expected);
	});
});

describe('stop words', () => {
	it.each([
		['STOP', 'STOP'],
		['STOPALL', 'STOPALL'],
		['UNSUBSCRIBE', 'UNSUBSCRIBE'],
		['CANCEL', 'CANCEL'],
		['END', 'END'],
		['QUIT', 'QUIT'],
		['REVOKE', 'REVOKE'],
		['OPTOUT', 'OPTOUT'],
		['OPT OUT', 'OPT OUT'],
		['stop', 'STOP'],
		['Stop.', 'STOP'],
		['  sToP  ', 'STOP'],
		['STOP!!!', 'STOP'],
		['"Unsubscribe"', 'UNSUBSCRIBE'],
		['end.', 'END'],
		['Quit\n', 'QUIT'],
		['¿revoke?', 'REVOKE'],
		['opt-out', 'OPT OUT'],
		['Opt  Out', 'OPT OUT'],
		['Opt\u2011out', 'OPT OUT'],
		['optout', 'OPTOUT'],
		['STOP 🛑', 'STOP'],
		['👎🏽 stop', 'STOP'],
		['Stop ✋️', 'STOP'],
		['ＳＴＯＰ', 'STOP'],
	])(
		'reads "%s" as the stop word %s: case, spaces, punctuation and emoji around it do not matter',
		(text, word) => {
			expect(stopWordOf(text)).toBe(word);
		},
	);

	it.each([
		'we have got to STOP this bill',
		'stop it',
		'Stop. Thank you',
		'please stop',
		'STOP 12345',
		'STOP STOP',
		'stopp',
		'stops',
		'S T O P',
		'S.T.O.P',
		'nonstop',
		'the end',
		'end of',
		'cancel my appointment',
		'opt in',
		'opt out now',
		'optoutt',
		'ST🛑P',
		'🛑',
		'',
		'   ',
		'STAD',
		'arrêter',
	])('does not read "%s" as a stop word', (text) => {
		expect(stopWordOf(text)).toBeNull();
	});

	it('reads 60,000 punctuation marks around a word, or before a letter, in one pass', () => {
		// `[…]+$` over such a text backtracked once per mark: seconds of n8n's event loop.
		expect(stopWordOf(`${'!'.repeat(30_000)}stop${'?'.repeat(30_000)}`)).toBe('STOP');
		expect(stopWordOf(`${'!'.repeat(60_000)}a`)).toBeNull();
		expect(stopWordOf(`stop${'🛑'.repeat(10_000)}x`)).toBeNull();
	});
});
