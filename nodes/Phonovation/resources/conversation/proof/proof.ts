// The HMAC every proof handed to a waiting run is made with, and its constant-time check.
import { createHmac, timingSafeEqual } from 'crypto';

/** The question or text a delivery is for: its run and its Notify ID. */
export interface ProofTarget {
	executionId: string;
	reference: string;
}

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
