// Which relay settled which question, as the Question Log keeps it: a relay answers at most one, once.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { findQuestions, type LoggedQuestion, recordSettled } from '../questionLog';

/**
 * Which relay settled which question, kept in the Question Log (`settledBy`, space-separated
 * marks: replyProof.ts relayMark). A mark alone: that relay resumed the question, and answers
 * nothing again. `u:` before it: the delivery's outcome was unknown (a 5xx, a timeout), so the
 * relay goes again to that question only, never to another.
 */
const UNCONFIRMED = 'u:';

/** How many marks a question keeps: one settles it; a few unconfirmed ones may come first. */
const MARKS_KEPT = 12;

/** Before a signed text's mark (replyProof.ts signedTextMark), then `@` and when it answered (ms, base 36). */
export const TEXT_MARK = 't:';

const marksOf = (settledBy: string | undefined) => (settledBy ? settledBy.split(' ') : []);

/** Whether a relay answered the question: a mark without `u:` (an unknown outcome may have left it waiting). */
export const isAnswered = (question: LoggedQuestion): boolean =>
	marksOf(question.settledBy).some((mark) => !mark.startsWith(UNCONFIRMED));

/**
 * The question a relay with this signed text last answered, or may have (`unconfirmed`), and when:
 * any copy of it, whatever its time stamp, Notify ID or From/Content boundary.
 */
export function answeredByText(
	questions: LoggedQuestion[],
	textMark: string,
): { question: LoggedQuestion; at: number; unconfirmed: boolean } | undefined {
	const prefix = `${TEXT_MARK}${textMark}@`;
	let found: { question: LoggedQuestion; at: number; unconfirmed: boolean } | undefined;
	for (const question of questions)
		for (const mark of marksOf(question.settledBy)) {
			const unconfirmed = mark.startsWith(UNCONFIRMED + prefix);
			const rest = unconfirmed ? mark.slice(UNCONFIRMED.length) : mark;
			const at = rest.startsWith(prefix) ? parseInt(rest.slice(prefix.length), 36) : NaN;
			if (Number.isFinite(at) && (!found || at > found.at)) found = { question, at, unconfirmed };
		}
	return found;
}

/** What earlier deliveries of this relay did: the question it answered, or may have. */
export function earlierDeliveries(
	questions: LoggedQuestion[],
	mark: string,
): { answered?: LoggedQuestion; mayHaveAnswered?: LoggedQuestion } {
	return {
		answered: questions.find((q) => marksOf(q.settledBy).includes(mark)),
		mayHaveAnswered: questions.find((q) => marksOf(q.settledBy).includes(UNCONFIRMED + mark)),
	};
}

/**
 * After a delivery that answered a question, or may have: the question's row, read again just
 * before it is written (another relay may have marked it since), gets this relay's mark. The
 * item says when the log could not keep it; the reply was delivered all the same. Two copies of
 * one relay in the same instant can both pass before either is marked: the log has no lock.
 */
export async function markSettled(
	ctx: IExecuteFunctions,
	itemIndex: number,
	result: IDataObject,
	{ mark, textMark }: { mark: string; textMark: string },
): Promise<IDataObject> {
	const reference = (result.question as { reference?: string } | undefined)?.reference;
	const resumed = result.resumed === true;
	if (!(resumed || result.unconfirmed === true) || !reference) return {};
	try {
		const [row] = (await findQuestions(ctx, itemIndex, '', { reference })).filter(
			(q) => q.reference === reference,
		);
		const others = marksOf(row?.settledBy).filter((m) => m !== mark && m !== UNCONFIRMED + mark);
		// The signed text's mark too, once it answered or may have: a copy with a fresh time stamp,
		// another Notify ID or the boundary moved is known by it.
		const textMarked = `${TEXT_MARK}${textMark}@${Date.now().toString(36)}`;
		const added = resumed ? [mark, textMarked] : [UNCONFIRMED + mark, UNCONFIRMED + textMarked];
		const settledBy = [...others, ...added].slice(-MARKS_KEPT).join(' ');
		const why = await recordSettled(ctx, itemIndex, { reference, settledBy });
		return why === null ? {} : { notRemembered: why };
	} catch (error) {
		return { notRemembered: (error as Error).message };
	}
}
