// Vouches, under the Relay Secret, that a Retry's resume URL serves a Notify ID an earlier execution sent.
import { createHmac, timingSafeEqual } from 'crypto';

/**
 * A question's Notify ID names the execution that texted it. After a Retry of a failed execution
 * the text is not sent again (the retry record keeps its Notify ID) but the run now waits under the
 * Retry's execution id, so the Question Log row pairs an old Notify ID with a new execution. Such a
 * row carries `bound=<HMAC-SHA256 of the pair and the node, keyed by the Relay Secret>`: only a node
 * with the credential could have written it, and the resume URL rule accepts the pair on it alone.
 */
export const BINDING_PARAMETER = 'bound';

interface Pairing {
	reference: string;
	executionId: string;
	nodeId: string;
}

const bindingOf = ({ reference, executionId, nodeId }: Pairing, secret: string) =>
	createHmac('sha256', secret)
		.update(`phonovation retry binding\n${reference}\n${executionId}\n${nodeId}`)
		.digest('hex');

/** True when `bound` is this pairing's binding under the secret. */
export function bindingHolds(pairing: Pairing, bound: string, secret: string): boolean {
	if (!secret || !/^[0-9a-f]{64}$/.test(bound)) return false;
	return timingSafeEqual(Buffer.from(bindingOf(pairing, secret)), Buffer.from(bound));
}

/**
 * The resume URL to record for a question or text: as it is when the Notify ID names this
 * execution, with `bound=…` added when it names an earlier one (a Retry of the execution).
 */
export function recordedResumeUrl(resumeUrl: string, pairing: Pairing, secret: string): string {
	if (pairing.reference.split('.')[0] === pairing.executionId) return resumeUrl;
	const url = new URL(resumeUrl);
	url.searchParams.append(BINDING_PARAMETER, bindingOf(pairing, secret));
	return url.toString();
}
