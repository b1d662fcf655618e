import { createHash } from 'node:crypto';

/** The simulator's own signer (never the node's): lower-case hex MD5 of UTF-8 text. */
export function md5Hex(text: string): string {
	return createHash('md5').update(text, 'utf8').digest('hex');
}

/** `SMS-Verify` of inbound relays and opt-outs: MD5(SMS-From + SMS-Content + secret). */
export function inboundSignature(from: string, content: string, secret: string): string {
	return md5Hex(from + content + secret);
}

/**
 * `SMS-Verify` of delivery receipts: MD5(SMS-NotifyId + SMS-Success + secret). The field carries
 * `True`/`False`, but the provider's only reproducible example hashes lower-case `true`.
 */
export function receiptSignature(notifyId: string, success: boolean, secret: string): string {
	return md5Hex(notifyId + String(success) + secret);
}
