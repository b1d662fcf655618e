import { wholeReply } from './optOutWords';

/**
 * Answers to a yes/no question texted back, in English and Irish. CANCEL, STOP and the other stop
 * words are not answers: a reply that is one is an opt-out, which must reach suppression.
 */
export const DEFAULT_YES_WORDS: readonly string[] = [
	'YES',
	'Y',
	'YEAH',
	'YEP',
	'OK',
	'OKAY',
	'CONFIRM',
	'CONFIRMED',
	'SURE',
	'TÁ',
	'SEA',
	'IS EA',
];
export const DEFAULT_NO_WORDS: readonly string[] = ['NO', 'N', 'NOPE', 'DECLINE', 'NÍL', 'NÍ HEA'];

/** A word as replies are compared: its whole text, capitals, accents (fadas) and inner spacing ignored. */
function comparable(text: string): string {
	return wholeReply(text).normalize('NFD').replace(/\p{M}/gu, '').split(/\s+/u).join(' ');
}

export interface ApprovalWords {
	yes: readonly string[];
	no: readonly string[];
}

/** Reads answers against one set of words, each compared once. */
export class ApprovalReader {
	private readonly answers = new Map<string, boolean>();

	constructor(words: ApprovalWords = { yes: DEFAULT_YES_WORDS, no: DEFAULT_NO_WORDS }) {
		for (const word of words.no) this.add(word, false);
		for (const word of words.yes) this.add(word, true);
	}

	private add(word: string, approved: boolean): void {
		const key = comparable(word);
		if (key === '') return;
		const earlier = this.answers.get(key);
		if (earlier !== undefined && earlier !== approved)
			throw new Error(`"${word}" is both a yes and a no word`);
		this.answers.set(key, approved);
	}

	/**
	 * Whether the reply approves (true), declines (false) or is no answer (null): the whole text must
	 * be one of the words ("Yes!", "no 👎" and "tá" are answers; "yes but not at 10" is not).
	 */
	read(text: string): boolean | null {
		return this.answers.get(comparable(text)) ?? null;
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
