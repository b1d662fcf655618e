// Opt-in words: what a person texts to be texted again after an opt-out.
/**
 * The start words the trigger recognises as a request to be texted again: START and UNSTOP (the
 * carriers' and CTIA's opt-in words) and SUBSCRIBE. Not YES, which answers a question. The whole
 * text must be one word, read as stop words are. Pure: imports nothing from n8n.
 */
import { wholeReply } from './optOutWords';

const START_WORDS = ['START', 'UNSTOP', 'SUBSCRIBE'] as const;

export type StartWord = (typeof START_WORDS)[number];

const BY_TEXT = new Map<string, StartWord>(START_WORDS.map((word) => [word, word]));

/** The start word a message consists of, or null ("Start." and "UNSTOP 🙂" are; "start now" is not). */
export function startWordOf(text: string): StartWord | null {
	return BY_TEXT.get(wholeReply(text)) ?? null;
}

/** The start words, for descriptions and docs. */
export const START_WORDS_TEXT = START_WORDS.join(', ');
