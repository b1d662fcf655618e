// The run's resume token of a wait for delivery, sealed under the Relay Secret so no table holds it.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'crypto';

/**
 * n8n 2.41 resumes a waiting node that is not a `sendAndWait` operation only under the run's resume
 * token (`$execution.resumeUrl`), and that token opens every later wait of the run. So the Question
 * Log never holds it: it holds the token sealed with AES-256-GCM under a key derived from the
 * credential's Relay Secret, bound to the execution and node it resumes. Only a node with the same
 * credential (Deliver Receipt) can open it, and only for that execution and node.
 */
const PARAMETER = 'sealed';

interface Target {
	executionId: string;
	nodeId: string;
}

const bindingOf = ({ executionId, nodeId }: Target) => Buffer.from(`${executionId}/${nodeId}`);

function keyFor(secret: string, target: Target): Buffer {
	const key = hkdfSync('sha256', secret, 'phonovation resume token', bindingOf(target), 32);
	return Buffer.from(key);
}

/** The token sealed for this execution and node, as URL-safe text. */
export function sealToken(token: string, target: Target, secret: string): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', keyFor(secret, target), iv);
	cipher.setAAD(bindingOf(target));
	const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
	return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The token, or undefined when the text was not sealed by this secret for this execution and node. */
export function openToken(sealed: string, target: Target, secret: string): string | undefined {
	const bytes = Buffer.from(sealed, 'base64url');
	if (bytes.length < 29 || bytes.length > 512) return undefined;
	try {
		const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, target), bytes.subarray(0, 12));
		decipher.setAAD(bindingOf(target));
		decipher.setAuthTag(bytes.subarray(12, 28));
		return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
	} catch {
		return undefined;
	}
}

/**
 * The resume URL to record: `$execution.resumeUrl` + `/<node id>`, its `signature` (the run's token)
 * replaced by `sealed=<token sealed for this execution and node>`. By itself it resumes nothing.
 */
export function sealedResumeUrl(runResumeUrl: string, nodeId: string, secret: string): string {
	const url = new URL(runResumeUrl);
	const token = url.searchParams.get('signature') ?? '';
	const executionId = url.pathname.split('/').filter(Boolean).pop() ?? '';
	url.pathname = `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(nodeId)}`;
	url.search = '';
	url.searchParams.set(PARAMETER, sealToken(token, { executionId, nodeId }, secret));
	return url.toString();
}

/** The sealed token a recorded URL carries, if any. */
export const sealedOf = (url: URL): string | null => url.searchParams.get(PARAMETER);
