// What Deliver Receipt hands a run waiting for its text's delivery, and the proof it is checked by.
import { countOrNull } from '../../../../shared/values';
import { proofHolds, proofOver, type ProofTarget } from './proof';

/**
 * What Deliver Receipt posts to a run waiting for its text's delivery, and the proof that makes
 * the run accept it (keyed with the Relay Secret, over the run, the text's Notify ID and every field).
 */
export interface DeliveredReceipt {
	/** The Notify ID the receipt reports on (signed by the provider in a delivery receipt). */
	notifyId: string;
	outcome: 'delivered' | 'failed';
	/** What told: the handset's delivery receipt, or a processing result that refused the number. */
	source: 'deliveryReceipt' | 'processingResult';
	/** Why it failed, in the provider's words where it gave any (a processing result's Message). */
	reason: string | null;
	/** Message parts to send, sent and failed (a delivery receipt's counts). */
	parts: { toSend: number | null; sent: number | null; failed: number | null };
	/** When the provider's gateway had the receipt, or finished processing. */
	receivedAt: string | null;
}

const OUTCOMES = ['delivered', 'failed'];
const SOURCES = ['deliveryReceipt', 'processingResult'];

export function receiptProof(
	target: ProofTarget,
	receipt: DeliveredReceipt,
	secret: string,
): string {
	const { notifyId, outcome, source, reason, parts, receivedAt } = receipt;
	const fields = [notifyId, outcome, source, reason, parts.toSend, parts.sent, parts.failed];
	return proofOver('receipt-v1', target, [...fields, receivedAt], secret);
}

/** Whether a body's field is null or of the type: a text, a count. */
const isTextOrNull = (value: unknown) => value === null || typeof value === 'string';
const isCountOrNull = (value: unknown) => value === null || countOrNull(value) !== null;

/** The receipt in a request body, if it is one and its proof holds for this run's text. */
export function provenReceipt(
	body: unknown,
	target: ProofTarget,
	secret: string,
): DeliveredReceipt | null {
	if (!body || typeof body !== 'object' || secret === '') return null;
	const { notifyId, outcome, source, reason, parts, receivedAt, proof } = body as Record<
		string,
		unknown
	>;
	if (typeof notifyId !== 'string' || !OUTCOMES.includes(outcome as string)) return null;
	if (!SOURCES.includes(source as string) || !isTextOrNull(reason) || !isTextOrNull(receivedAt))
		return null;
	if (!parts || typeof parts !== 'object') return null;
	const { toSend, sent, failed } = parts as Record<string, unknown>;
	if (![toSend, sent, failed].every(isCountOrNull)) return null;
	const receipt = {
		notifyId,
		outcome,
		source,
		reason,
		parts: { toSend, sent, failed },
		receivedAt,
	} as DeliveredReceipt;
	return proofHolds(proof, receiptProof(target, receipt, secret)) ? receipt : null;
}
