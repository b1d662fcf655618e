import {
	type ApprovalWords,
	DEFAULT_NO_WORDS,
	DEFAULT_YES_WORDS,
	wordsOf,
} from '../../../shared/approvalWords';
import { stopWordOf } from '../../../shared/optOutWords';

/** The options of Send and Wait for Reply that decide what an answer is (and where it goes). */
export interface ConversationOptions {
	defaultCountryCode?: unknown;
	limitWaitTime?: unknown;
	yesWords?: unknown;
	noWords?: unknown;
	otherReplies?: unknown;
}

/**
 * The yes and no words an Approval question takes. A stop word is refused: a reply that is one
 * opts the number out, and must never be read as an answer instead.
 */
export function approvalWordsOf(options: ConversationOptions): ApprovalWords {
	const words = {
		yes: wordsOf(options.yesWords, DEFAULT_YES_WORDS),
		no: wordsOf(options.noWords, DEFAULT_NO_WORDS),
	};
	const stop = [...words.yes, ...words.no].find((word) => stopWordOf(word) !== null);
	if (stop !== undefined)
		throw new Error(
			`"${stop}" is a stop word: a reply that is one opts the number out, so it cannot be an answer`,
		);
	return words;
}
