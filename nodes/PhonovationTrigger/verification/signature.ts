// The provider's SMS-Verify MD5 signatures of messages and receipts, and constant-time comparisons.
/**
 * The provider's SMS-Verify MD5 recipes for messages and receipts, and constant-time comparison of
 * digests and of secrets such as the URL token.
 */

import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The provider's `SMS-Verify` scheme: lower-case hex MD5 over field values concatenated with
 * nothing between them, then the relay secret. Values are the decoded strings as received,
 * hashed as UTF-8.
 */
export function md5Hex(text: string): string {
	return createHash('md5').update(text, 'utf8').digest('hex');
}

/** `SMS-Verify` of inbound relays and opt-outs: MD5(SMS-From + SMS-Content + secret). */
export function inboundDigest(from: string, content: string, secret: string): string {
	return md5Hex(from + content + secret);
}

/** `SMS-Verify` of delivery receipts: MD5(SMS-NotifyId + SMS-Success + secret). */
export function receiptDigest(notifyId: string, success: string, secret: string): string {
	return md5Hex(notifyId + success + secret);
}

/** Compares two hex digests in constant time, ignoring hex case; unequal lengths never match. */
export function digestsMatch(expected: string, received: string): boolean {
	const a = Buffer.from(expected.toLowerCase(), 'utf8');
	const b = Buffer.from(received.toLowerCase(), 'utf8');
	if (a.length !== b.length) return false;
	return timingSafeEqual(a, b);
}

interface InboundSignatureFields {
	from: string;
	content: string;
	verify: string;
}

export function verifyInboundSignature(fields: InboundSignatureFields, secret: string): boolean {
	return digestsMatch(inboundDigest(fields.from, fields.content, secret), fields.verify);
}

interface ReceiptSignatureFields {
	notifyId: string;
	success: string;
	verify: string;
}

/**
 * Tries the success value as sent and lower-cased: the payload carries `True`, while the
 * provider's only reproducible example digest was computed over `true`.
 */
export function verifyReceiptSignature(fields: ReceiptSignatureFields, secret: string): boolean {
	const spellings = [...new Set([fields.success, fields.success.toLowerCase()])];
	let matched = false;
	for (const success of spellings) {
		// No early exit: every spelling is checked, so timing does not tell which one matched.
		if (digestsMatch(receiptDigest(fields.notifyId, success, secret), fields.verify))
			matched = true;
	}
	return matched;
}

/**
 * Compares two secrets (e.g. a URL token) in constant time without revealing their lengths:
 * both sides are hashed to a fixed size first.
 */
export function secretsMatch(expected: string, received: string): boolean {
	const a = createHash('sha256').update(expected, 'utf8').digest();
	const b = createHash('sha256').update(received, 'utf8').digest();
	return timingSafeEqual(a, b);
}
