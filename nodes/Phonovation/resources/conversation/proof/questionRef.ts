// The Notify ID a question or text is sent with: it names the waiting run, under the Relay Secret.
import { createHmac, timingSafeEqual } from 'crypto';

/**
 * The Notify ID a question is sent with, so that a reply can find the waiting run that asked it:
 * `<executionId>.<ask>.<MAC>`. `ask` is the asking node's run in that execution (base 36), so a
 * node that asks in a loop gives each question its own reference; the MAC is an HMAC-SHA256 keyed
 * with the Relay Secret over the execution, the run, the asking node and the number, cut to 12
 * characters (72 bits). The provider echoes it, unsigned, in a linked reply (at most 30
 * characters, docs/provider-api.md#notify-id).
 *
 * A question may take one of VARIANTS MACs (the first is the one made before variants existed):
 * its answer code comes from its Notify ID (answers.ts), so a question whose code another waiting
 * question to the same number holds is asked under another variant, with another code.
 */
const MAC_LENGTH = 12;
const NOTIFY_ID_LIMIT = 30;
const EXECUTION_ID = /^[A-Za-z0-9_-]+$/;
/** A run in base 36 as `toString(36)` writes it: no leading zeros, so one question has one reference. */
const ASK = /^(0|[1-9a-z][0-9a-z]*)$/;
/** How many MACs one question may take: each costs a verifier one HMAC, and 4 bits of the MAC's 72. */
export const VARIANTS = 16;

/** Which question: the execution, the node that asks (its id), its run and the number asked. */
export interface Question {
	executionId: string;
	nodeId: string;
	msisdn: string;
	/** The asking node's run index in this execution. */
	ask: number;
}

function macOf(question: Question, secret: string, variant = 0): string {
	const { executionId, nodeId, msisdn, ask } = question;
	// Variant 0 is the Notify ID made before variants; another names itself first, in its own domain.
	const domain = variant === 0 ? 'question-v3' : `question-v3.${variant}`;
	return createHmac('sha256', secret)
		.update(`${domain}|${executionId}|${ask}|${nodeId}|${msisdn}`)
		.digest('base64url')
		.slice(0, MAC_LENGTH);
}

/** Whether a question of this execution and run fits a Notify ID (n8n's ids are short numbers). */
export const fitsQuestionRef = (executionId: string, ask = 0) =>
	EXECUTION_ID.test(executionId) &&
	executionId.length + ask.toString(36).length + MAC_LENGTH + 2 <= NOTIFY_ID_LIMIT;

/** Whether a Notify ID has the shape of ours (`<execution>.<run>.<MAC>`): anything else names no waiting run. */
export function isQuestionRefShaped(notifyId: string): boolean {
	const [executionId, ask, mac, ...more] = notifyId.split('.');
	return (
		more.length === 0 &&
		EXECUTION_ID.test(executionId) &&
		ASK.test(ask ?? '') &&
		(mac ?? '').length === MAC_LENGTH
	);
}

/**
 * The Notify ID for this question (under `variant`, 0 to VARIANTS - 1); undefined when it cannot
 * fit or there is no secret.
 */
export function questionRef(question: Question, secret: string, variant = 0): string | undefined {
	if (!fitsQuestionRef(question.executionId, question.ask) || secret === '') return undefined;
	if (!Number.isInteger(variant) || variant < 0 || variant >= VARIANTS)
		throw new RangeError(`a question has ${VARIANTS} variants, not ${variant}`);
	const mac = macOf(question, secret, variant);
	return `${question.executionId}.${question.ask.toString(36)}.${mac}`;
}

/**
 * The execution and run whose question to this number, asked by `nodeId`, this Notify ID names,
 * or null: a reference that is not ours, or was made for another number, node or secret, names none.
 */
export function questionOf(
	notifyId: unknown,
	asked: Pick<Question, 'nodeId' | 'msisdn'>,
	secret: string,
): Pick<Question, 'executionId' | 'ask'> | null {
	if (typeof notifyId !== 'string' || secret === '') return null;
	const [executionId, ask, mac, ...more] = notifyId.split('.');
	if (more.length || !EXECUTION_ID.test(executionId) || !ASK.test(ask ?? '')) return null;
	const given = Buffer.from(mac ?? '');
	if (given.length !== MAC_LENGTH) return null;
	const question = { executionId, ask: parseInt(ask, 36), ...asked };
	// Which variant matched is no secret; variant 0 (every question asked without a code) first.
	for (let variant = 0; variant < VARIANTS; variant++)
		if (timingSafeEqual(given, Buffer.from(macOf(question, secret, variant))))
			return { executionId, ask: question.ask };
	return null;
}
