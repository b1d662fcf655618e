// What Deliver Reply hands a waiting question, its proof, and the mark a relay that settled one leaves.
import { proofHolds, proofOver, type ProofTarget } from './proof';

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

/**
 * What the Question Log keeps of the signed text a relay carried (`t:` marks, settledRelays.ts): an
 * HMAC, keyed with the Relay Secret, of From and Content as the provider signs them, one string.
 * No time stamp, no boundary: the same for a copy posted again with a fresh time stamp, another
 * Notify ID or the From/Content boundary moved, so every copy of a relay that answered is known.
 */
export function signedTextMark(reply: DeliveredReply, secret: string): string {
	return proofOver(
		'signed-text-v1',
		{ executionId: '', reference: '' },
		[reply.from + reply.text],
		secret,
	).slice(0, 40);
}
