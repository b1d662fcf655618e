import {
	ApprovalReader,
	DEFAULT_NO_WORDS,
	wordsOf,
} from '../../../../../../nodes/Phonovation/resources/conversation/ask/approvalWords';
import { stopWordOf } from '../../../../../../nodes/shared/optOutWords';

describe('answers to a yes/no question texted back', () => {
	const reader = new ApprovalReader();

	it.each([
		['YES', true],
		['yes', true],
		['Yes!', true],
		['  ok 👍 ', true],
		['Tá', true],
		['ta', true],
		['is  ea', true],
		['No.', false],
		['níl', false],
		['Ni hea', false],
		['ＹＥＳ', true],
		['Yes please', true],
		['Yes, see you then', true],
		['Grand', true],
		['grand, thanks a million!', true],
		['👍', true],
		['👍🏽', true],
		['Yes 👍 see you then', true],
		['Tá, go raibh maith agat', true],
		['No problem', true],
		['No thanks', false],
		["Can't make it, sorry", false],
		["can't make it", false],
		['👎', false],
	])('%j is an answer: %s', (text, approved) => {
		expect(reader.read(text)).toBe(approved);
	});

	it.each([
		'yes but not at 10',
		'maybe',
		'Y E S',
		'',
		'🙂',
		'yess',
		'STOP',
		'CANCEL',
		'Yes no',
		'no problem at all, but can we make it 11?',
		'Yes? What is this about',
		"No, that's grand",
		'No perfect',
		'Nope, sound',
		"No that's fine",
	])('%j is no answer', (text) => {
		expect(reader.read(text)).toBeNull();
	});

	it('no default answer is a stop word: a reply that opts out is never read as an answer', () => {
		expect([...DEFAULT_NO_WORDS].filter((word) => stopWordOf(word) !== null)).toEqual([]);
	});

	it('reads the words a user configured, comma-separated, instead of the defaults', () => {
		const own = new ApprovalReader({
			yes: wordsOf('Confirm, Deimhnigh', []),
			no: wordsOf(' Reschedule ,', []),
		});
		expect([own.read('deimhnigh'), own.read('RESCHEDULE'), own.read('yes')]).toEqual([
			true,
			false,
			null,
		]);
		expect(wordsOf('   ', ['YES'])).toEqual(['YES']);
	});

	it('refuses a word configured as both yes and no, naming it', () => {
		expect(() => new ApprovalReader({ yes: ['OK'], no: ['ok'] })).toThrow(
			'"OK" is both a yes and a no word',
		);
	});
});
