// The one rule for a resume URL read from the Question Log: where a delivery may be posted, or why not.
import { isQuestionRefShaped, questionOf } from './questionRef';
import { BINDING_PARAMETER, bindingHolds } from './retryBinding';
import { openToken } from './sealedResumeToken';

/**
 * The one rule for a resume URL read from the Question Log. The log is a workflow the user runs,
 * fed by anyone who can write its Data Table: nothing in a row may choose where a post goes. A row
 * is used only when its URL is exactly this n8n's waiting-webhook shape,
 * `<waiting base><execution>/<node id>?signature=<64 hex>` (n8n's node-signed URL, Send and Wait for
 * Reply) or `…?sealed=<token>` (Send and Wait for Delivery: the run's resume token sealed under the
 * Relay Secret for that execution and node, sealedResumeToken.ts), for the execution its own
 * reference names, and when that reference is the one the URL's node made for the row's number
 * (its code checked under the Relay Secret); the post then goes to a URL rebuilt from those parts,
 * never the row's text.
 */

/** The parts of a Question Log row the rule reads. */
export interface LogRow {
	/** The question's reference (Notify ID), `<execution>.<run>.<code>`. */
	reference: string;
	/** The number asked, as the asking node recorded it. */
	phone: string;
	resumeUrl: string;
}

/** Where a post for a row goes: rebuilt from this n8n's waiting base and the parts read. */
export interface ResumeTarget {
	executionId: string;
	nodeId: string;
	url: string;
}

export type ResumeUrlReading = { target: ResumeTarget } | { unusable: string };

/** n8n's execution ids are numbers; node ids are UUIDs, or the letters, digits, `-` and `_` of older ids. */
const TAIL = /^(\d+)\/([A-Za-z0-9_-]+)$/;

/**
 * What is wrong with the row's text before any parser normalises it away: a URL parser resolves
 * dot-segments (`%2e` too), reads `\` as `/`, drops tabs and newlines, so these are read raw.
 */
function rawFlaw(raw: string): string | null {
	if (!/^[\x21-\x7e]+$/.test(raw)) return 'spaces or control characters in the URL';
	if (raw.includes('\\')) return 'a backslash in the URL';
	if (/%(2e|2f|5c)/i.test(raw)) return 'an encoded dot, slash or backslash in the URL';
	if (/\/\.\.?(?=[/?#]|$)/.test(raw)) return 'a dot-segment (. or ..) in the path';
	if (raw.includes('@')) return 'a user or password in the URL';
	if (raw.includes('#')) return 'a fragment in the URL';
	return null;
}

/** This n8n's waiting base, parsed; null when the run's own resume URL gives none. */
export function parsedWaitingBase(waitingBase: string): URL | null {
	try {
		const base = new URL(waitingBase);
		const usable = ['http:', 'https:'].includes(base.protocol) && base.pathname.endsWith('/');
		return usable && base.pathname !== '/' && !base.search && !base.hash ? base : null;
	} catch {
		return null;
	}
}

/** The execution a question reference (`<execution>.<run>.<code>`) names, or null. */
function executionOfReference(reference: string): string | null {
	return isQuestionRefShaped(reference) ? reference.split('.')[0] : null;
}

/** The parts of a row's URL that passed the raw checks, compared with the waiting base. */
function partsOf(raw: string, base: URL): { executionId: string; nodeId: string } | string {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return 'not a URL';
	}
	if (url.origin !== base.origin) return `not this n8n (${url.origin})`;
	if (url.username || url.password) return 'a user or password in the URL';
	if (!url.pathname.startsWith(base.pathname)) return "not under this n8n's waiting webhooks";
	const tail = TAIL.exec(url.pathname.slice(base.pathname.length));
	if (!tail) return 'the path is not <execution id>/<node id>';
	return { executionId: tail[1], nodeId: tail[2] };
}

/**
 * The signature to post with, checked on the parsed query: one node signature as n8n writes it, or
 * one token sealed for this execution and node under the Relay Secret, opened; besides it only a
 * retry binding (retryBinding.ts), once.
 */
function signatureOf(
	query: URLSearchParams,
	target: { executionId: string; nodeId: string },
	secret: string,
): string | undefined {
	const keys = [...query.keys()].filter((key) => key !== BINDING_PARAMETER);
	if (keys.length !== 1 || query.getAll(BINDING_PARAMETER).length > 1) return undefined;
	const signature = query.getAll('signature');
	if (signature.length === 1) return /^[0-9a-f]{64}$/.test(signature[0]) ? signature[0] : undefined;
	const sealed = query.getAll('sealed');
	if (sealed.length !== 1 || !/^[\w-]{1,512}$/.test(sealed[0]) || !secret) return undefined;
	const token = openToken(sealed[0], target, secret);
	return token && /^[0-9a-f]{64}$/.test(token) ? token : undefined;
}

/**
 * Why a row's reference may not be served at its URL's execution, or null when it may: the
 * reference is the question the URL's node asked the row's number (a made-up one, or one copied
 * onto another node or number, is not), and it names that execution, or (after a Retry of the
 * execution) a retry binding vouches for the pair.
 */
function pairingFlaw(
	row: Pick<LogRow, 'reference' | 'phone'>,
	target: { executionId: string; nodeId: string },
	query: URLSearchParams,
	secret: string,
): string | null {
	const { reference } = row;
	const referenced = executionOfReference(reference);
	if (referenced === null) return 'the reference is not a question reference';
	if (!questionOf(reference, { nodeId: target.nodeId, msisdn: row.phone }, secret))
		return "the reference is not the URL's node's question to this number (its code does not check out under the Relay Secret)";
	const bound = query.get(BINDING_PARAMETER);
	if (referenced === target.executionId)
		return bound === null ? null : 'a retry binding where none is due';
	if (bound !== null && bindingHolds({ reference, ...target }, bound, secret)) return null;
	return `the URL's execution ${target.executionId} is not the reference's, and no valid retry binding says why`;
}

/**
 * Reads a row's resume URL by the rule above: the target to post to, or why the row is unusable.
 * `secret`, the Relay Secret, checks the row's reference and opens a sealed token.
 */
export function readResumeUrl(row: LogRow, waitingBase: string, secret: string): ResumeUrlReading {
	const raw = row.resumeUrl;
	const base = parsedWaitingBase(waitingBase);
	if (!base) return { unusable: "this n8n's waiting-webhook address is unknown" };
	const flaw = rawFlaw(raw);
	if (flaw) return { unusable: flaw };
	const parts = partsOf(raw, base);
	if (typeof parts === 'string') return { unusable: parts };
	const query = new URL(raw).searchParams;
	const signature = signatureOf(query, parts, secret);
	if (!signature)
		return {
			unusable:
				'the query is not one signature of 64 hex characters, or one token sealed for this execution and node',
		};
	const unpaired = pairingFlaw(row, parts, query, secret);
	if (unpaired) return { unusable: unpaired };
	const url = `${base.origin}${base.pathname}${parts.executionId}/${parts.nodeId}?signature=${signature}`;
	return { target: { ...parts, url } };
}
