import { createHmac, timingSafeEqual } from 'crypto';

/**
 * The Notify ID a question is sent with, so that a reply can be delivered to the waiting run that
 * asked it, and only from the number it was asked of: `<executionId>.<MAC>`, the MAC an
 * HMAC-SHA256 keyed with the Relay Secret over the execution, the asking node and the number, cut
 * to 15 characters (90 bits). The provider echoes it, unsigned, in the reply (at most 30
 * characters, docs/provider-api.md#notify-id). Two questions of one run (two nodes) get
 * different references.
 */
const MAC_LENGTH = 15;
const NOTIFY_ID_LIMIT = 30;
/** The longest execution id that fits beside the MAC and the dot. */
export const MAX_EXECUTION_ID_LENGTH = NOTIFY_ID_LIMIT - MAC_LENGTH - 1;
const EXECUTION_ID = /^[A-Za-z0-9_-]+$/;

/** Which question: the execution, the node that asks (its id) and the number asked. */
export interface Question {
	executionId: string;
	nodeId: string;
	msisdn: string;
}

function macOf(question: Question, secret: string): string {
	const { executionId, nodeId, msisdn } = question;
	return createHmac('sha256', secret)
		.update(`question-v2|${executionId}|${nodeId}|${msisdn}`)
		.digest('base64url')
		.slice(0, MAC_LENGTH);
}

/** Whether an execution id fits a Notify ID beside its MAC (n8n's ids are short numbers). */
export const fitsQuestionRef = (executionId: string) =>
	EXECUTION_ID.test(executionId) && executionId.length <= MAX_EXECUTION_ID_LENGTH;

/** The Notify ID for this question; undefined when the execution id cannot fit or there is no secret. */
export function questionRef(question: Question, secret: string): string | undefined {
	if (!fitsQuestionRef(question.executionId) || secret === '') return undefined;
	return `${question.executionId}.${macOf(question, secret)}`;
}

/**
 * The execution that asked this number the question of `nodeId` that this Notify ID names, or
 * null: a reference that is not ours, or was made for another number, node or secret, names none.
 */
export function askingExecution(
	notifyId: unknown,
	asked: Omit<Question, 'executionId'>,
	secret: string,
): string | null {
	if (typeof notifyId !== 'string' || secret === '') return null;
	const dot = notifyId.lastIndexOf('.');
	if (dot <= 0) return null;
	const executionId = notifyId.slice(0, dot);
	const given = Buffer.from(notifyId.slice(dot + 1));
	if (!EXECUTION_ID.test(executionId) || given.length !== MAC_LENGTH) return null;
	const expected = Buffer.from(macOf({ executionId, ...asked }, secret));
	return timingSafeEqual(given, expected) ? executionId : null;
}
