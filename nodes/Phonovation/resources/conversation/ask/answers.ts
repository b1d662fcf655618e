// What makes a reply an answer to a question: its options, its yes and no words, its answer code.
import { stopWordOf } from '../../../../shared/optOutWords';
import type { AskOptions } from './ask';
import { type ApprovalWords, DEFAULT_NO_WORDS, DEFAULT_YES_WORDS, wordsOf } from './approvalWords';
import { isHumanReviewType } from '../../../toolUse';

/** The options of Send and Wait for Reply that decide what an answer is (and where it goes). */
export interface ConversationOptions extends AskOptions {
	answerCode?: unknown;
	repromptText?: unknown;
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

/**
 * Whether an Approval answer must carry the question's code ("YES 4821"): the option, on by
 * default for the AI Agent's human review, where a captured "YES" must never approve a later action.
 */
export function wantsAnswerCode(options: ConversationOptions, nodeType: string): boolean {
	if (options.answerCode === undefined) return isHumanReviewType(nodeType);
	return options.answerCode === true || options.answerCode === 'true';
}

/** What the question's text ends with when its answer must carry the code. */
export const codeLine = (code: string, responseType = 'approval') =>
	responseType === 'approval'
		? `\nReply YES ${code} or NO ${code}`
		: `\nStart your reply with ${code}`;
