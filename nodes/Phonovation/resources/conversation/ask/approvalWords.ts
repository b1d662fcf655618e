// The yes and no words an Approval question takes, and how a reply is read against them.
import { wholeReply } from '../../../../shared/optOutWords';

/**
 * Answers to a yes/no question texted back, in English and Irish. CANCEL, STOP and the other stop
 * words are not answers: a reply that is one is an opt-out, which must reach suppression.
 */
export const DEFAULT_YES_WORDS: readonly string[] = [
	'YES',
	'Y',
	'YEAH',
	'YEP',
	'YUP',
	'AYE',
	'OK',
	'OKAY',
	'CONFIRM',
	'CONFIRMED',
	'SURE',
	'GRAND',
	'PERFECT',
	'GREAT',
	'FINE',
	'SOUND',
	'ABSOLUTELY',
	'DEFINITELY',
	'CERTAINLY',
	'CORRECT',
	'NO PROBLEM',
	'NO BOTHER',
	'👍',
	'✅',
	'👌',
	'TÁ',
	'SEA',
	'IS EA',
	'CINNTE',
];
export const DEFAULT_NO_WORDS: readonly string[] = [
	'NO',
	'N',
	'NOPE',
	'NAH',
	'DECLINE',
	"CAN'T MAKE IT",
	'CANNOT MAKE IT',
	'👎',
	'❌',
	'NÍL',
	'NÍ HEA',
];

/**
 * Words that may follow an answer without changing it ("Yes please", "Yes, see you then", "No
 * thanks", "Grand, thanks a million"). Anything else after it makes the reply no answer: "yes but
 * not at 10" must reach a person. Words that approve ("grand", "fine") are not among them: they
 * may follow a yes ("Yes, grand"), but after a no ("No, that's grand") the reply is no answer.
 */
const COURTESIES = new Set(
	(
		'please thanks thank you ta cheers a million lot so much very see then there soon ' +
		"that's thats is will do be x xx xxx sir madam go raibh maith agat " +
		'agaibh again sorry'
	).split(' '),
);

/** The words of a reply or an answer word: capitals, accents (fadas) and punctuation ignored. */
function wordsIn(text: string): string[] {
	const trimmed = text.normalize('NFKC').trim();
	// An answer that is only an emoji would be trimmed away as "surrounding" punctuation.
	const whole = /^[\p{L}\p{N}]/u.test(trimmed) || !trimmed ? wholeReply(text) : trimmed;
	return whole
		.toUpperCase()
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.replace(/['’]/gu, '')
		.replace(/[^\p{L}\p{N}\p{Extended_Pictographic}]+/gu, ' ')
		.trim()
		.split(' ')
		.filter(Boolean);
}

export interface ApprovalWords {
	yes: readonly string[];
	no: readonly string[];
}

/** Reads answers against one set of words, each compared once. */
export class ApprovalReader {
	private readonly answers = new Map<string, boolean>();

	/** The most words an answer word has: the longest start of a reply worth looking up. */
	private longest = 1;

	constructor(words: ApprovalWords = { yes: DEFAULT_YES_WORDS, no: DEFAULT_NO_WORDS }) {
		for (const word of words.no) this.add(word, false);
		for (const word of words.yes) this.add(word, true);
	}

	private add(word: string, approved: boolean): void {
		const words = wordsIn(word);
		if (words.length === 0) return;
		const key = words.join(' ');
		const earlier = this.answers.get(key);
		if (earlier !== undefined && earlier !== approved)
			throw new Error(`"${word}" is both a yes and a no word`);
		this.answers.set(key, approved);
		this.longest = Math.max(this.longest, words.length);
	}

	/**
	 * Whether the reply approves (true), declines (false) or is no answer (null). The reply must
	 * start with one of the words, and only courtesies may follow it: "Yes!", "yes please", "no 👎",
	 * "Tá, go raibh maith agat" and "👍" are answers; "yes but not at 10" and "maybe" are not.
	 */
	read(text: string): boolean | null {
		const words = wordsIn(text);
		for (let length = Math.min(this.longest, words.length); length > 0; length--) {
			const answer = this.answers.get(words.slice(0, length).join(' '));
			if (answer === undefined) continue;
			const rest = words.slice(length);
			const courteous = (word: string) =>
				COURTESIES.has(word.toLowerCase()) || this.answers.get(word) === answer;
			return rest.every(courteous) ? answer : null;
		}
		return null;
	}
}

/** The words of a comma-separated option (`"YES, Y, Tá"`), blanks dropped. */
export function wordsOf(option: unknown, fallback: readonly string[]): readonly string[] {
	if (typeof option !== 'string' || option.trim() === '') return fallback;
	return option
		.split(',')
		.map((word) => word.trim())
		.filter(Boolean);
}
