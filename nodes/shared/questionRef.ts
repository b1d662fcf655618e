import { createHmac, timingSafeEqual } from 'crypto';

/**
 * The Notify ID a question is sent with, so that a reply can be delivered to the waiting run that
 * asked it, and only from the number it was asked of: `<executionId>.<MAC>`, the MAC an
 * HMAC-SHA256 keyed with the Relay Secret over the execution and the number, cut to 16 characters
 * (96 bits). The provider echoes it, unsigned, in the reply (at most 30 characters, spec §2.2).
 */
const MAC_LENGTH = 16;
const NOTIFY_ID_LIMIT = 30;
/** The longest execution id that fits beside the MAC and the dot. */
export const MAX_EXECUTION_ID_LENGTH = NOTIFY_ID_LIMIT - MAC_LENGTH - 1;
const EXECUTION_ID = /^[A-Za-z0-9_-]+$/;

function macOf(executionId: string, msisdn: string, secret: string): string {
	return createHmac('sha256', secret).update(`question-v1|${executionId}|${msisdn}`).digest('base64url').slice(0, MAC_LENGTH);
}

/** The Notify ID for a question to `msisdn` from this execution; undefined when the id cannot fit. */
export function questionRef(executionId: string, msisdn: string, secret: string): string | undefined {
	if (!EXECUTION_ID.test(executionId) || executionId.length > MAX_EXECUTION_ID_LENGTH || secret === '') return undefined;
	return `${executionId}.${macOf(executionId, msisdn, secret)}`;
}

/**
 * The execution that asked `msisdn` the question this Notify ID names, or null: a reference that
 * is not ours, was made for another number or with another secret, names no question.
 */
export function askingExecution(notifyId: unknown, msisdn: string, secret: string): string | null {
	if (typeof notifyId !== 'string' || secret === '') return null;
	const dot = notifyId.lastIndexOf('.');
	if (dot <= 0) return null;
	const executionId = notifyId.slice(0, dot);
	const given = Buffer.from(notifyId.slice(dot + 1));
	if (!EXECUTION_ID.test(executionId) || given.length !== MAC_LENGTH) return null;
	const expected = Buffer.from(macOf(executionId, msisdn, secret));
	return timingSafeEqual(given, expected) ? executionId : null;
}
