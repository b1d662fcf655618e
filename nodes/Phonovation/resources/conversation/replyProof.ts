import { createHmac, timingSafeEqual } from 'crypto';

/**
 * What Deliver Reply posts to a waiting run's resume URL, and the proof that makes the run accept
 * it: an HMAC-SHA256, keyed with the Relay Secret, over the question it is for (its run and its
 * Notify ID: a node asking again in a loop waits at the same URL) and every field.
 * n8n's own token in the URL lets the request in; without this proof the run keeps waiting.
 */
export interface DeliveredReply {
	from: string;
	text: string;
	receivedAt: string | null;
	optedOut: boolean;
	notifyId: string | null;
}

/** The question a reply is delivered to: its run and its Notify ID. */
export interface ProofTarget {
	executionId: string;
	reference: string;
}

/** The provider's and our saved msisdns are international digits: never read them in a national form. */
export const asInternational = (msisdn: string) => (/^\d+$/.test(msisdn) ? `+${msisdn}` : msisdn);

/**
 * An HMAC-SHA256 keyed with the Relay Secret over what is delivered (`kind`, so a reply's proof
 * never passes for a receipt's), the run and Notify ID it is for, and every field.
 */
export function proofOver(
	kind: string,
	target: ProofTarget,
	fields: unknown[],
	secret: string,
): string {
	const signed = JSON.stringify([kind, target.executionId, target.reference, ...fields]);
	return createHmac('sha256', secret).update(signed).digest('hex');
}

/** Whether a proof given in a request body is the expected one (compared in constant time). */
export function proofHolds(given: unknown, expected: string): boolean {
	if (typeof given !== 'string') return false;
	const a = Buffer.from(given);
	const b = Buffer.from(expected);
	return a.length === b.length && timingSafeEqual(a, b);
}

export function replyProof(target: ProofTarget, reply: DeliveredReply, secret: string): string {
	const { from, text, receivedAt, optedOut, notifyId } = reply;
	return proofOver('reply-v2', target, [from, text, receivedAt, optedOut, notifyId], secret);
}

/**
 * What the Question Log keeps of a relay that settled a question (settledRelays.ts): an HMAC,
 * keyed with the Relay Secret, of the number, the text and the time stamp, so the log holds no
 * text and nobody without the secret can make one up. The linked Notify ID and the event (reply
 * or opt-out, read from the unsigned SMS-To) are left out: a replay could change them and pass
 * for another relay. The person's second YES has another time stamp, so another mark; a replay
 * with a made-up time stamp is a new mark too: only the Answer Code tells that one apart.
 */
export function relayMark(reply: DeliveredReply, secret: string): string {
	return proofOver(
		'settled-by-v2',
		{ executionId: '', reference: '' },
		[reply.from, reply.text, reply.receivedAt],
		secret,
	).slice(0, 40);
}

/** The reply in a request body, if it is one and its proof holds for this execution. */
export function provenReply(
	body: unknown,
	target: ProofTarget,
	secret: string,
): DeliveredReply | null {
	if (!body || typeof body !== 'object' || secret === '') return null;
	const { from, text, receivedAt, optedOut, notifyId, proof } = body as Record<string, unknown>;
	if (
		typeof from !== 'string' ||
		typeof text !== 'string' ||
		typeof optedOut !== 'boolean' ||
		typeof proof !== 'string'
	)
		return null;
	if (
		(receivedAt !== null && typeof receivedAt !== 'string') ||
		(notifyId !== null && typeof notifyId !== 'string')
	)
		return null;
	const reply: DeliveredReply = { from, text, receivedAt, optedOut, notifyId };
	return proofHolds(proof, replyProof(target, reply, secret)) ? reply : null;
}
