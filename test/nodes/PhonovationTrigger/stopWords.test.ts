import { stopWordOf } from '../../../nodes/PhonovationTrigger/stopWords';

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
	])('reads "%s" as the stop word %s: case, spaces, punctuation and emoji around it do not matter', (text, word) => {
		expect(stopWordOf(text)).toBe(word);
	});

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

