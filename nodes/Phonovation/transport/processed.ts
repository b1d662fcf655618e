// Whether the provider may have processed a request: only a proven refusal lets it be repeated.
import type { FailedExchange } from './failedExchange';

/**
 * The one rule for "may the provider have processed this request?", used by every paid send
 * (campaigns, Send and Wait, the legacy send). A request may be repeated only when the answer
 * proves a refusal; anything else is `unconfirmed`: recorded, never posted again, an error.
 *
 * What we assume of the provider (its docs list 200, 201, 400, 401, 422, 429 and 500; bodies of
 * the errors are not shown): a 4xx is its own refusal before processing, 429 being its rate limit.
 * A 5xx, a 3xx, a timeout or a dropped connection can come after processing: a 500 is an internal
 * error at an unknown point, and 502/503/504 are usually a proxy's page sent after the request
 * reached the API. A 503 counts as a refusal only when its body is the provider's own JSON saying
 * `success: false`. A connection that never opened (refused, no DNS answer, a failed TLS
 * handshake) never carried the request. The provider's side of this:
 * docs/provider-api.md#what-we-assume.
 */

/** Codes only a connection that never opened gives: the name did not resolve, or nobody listened. */
const NEVER_CONNECTED = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EAI_FAIL',
	'EAI_NONAME',
]);

/** Unreachable: before the request only when the connect call itself failed (not a later ICMP on an open socket). */
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A failed TLS handshake: no HTTP byte is written before it completes. Certificate checks, and the
 * handshake's own alerts; not record errors that can come later on an open connection.
 */
const HANDSHAKE = new Set([
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'CERT_REVOKED',
	'CERT_UNTRUSTED',
	'CERT_REJECTED',
	'ERR_TLS_CERT_ALTNAME_INVALID',
	'ERR_SSL_WRONG_VERSION_NUMBER',
	'ERR_SSL_UNSUPPORTED_PROTOCOL',
	'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
	'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
	'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
]);

/**
 * OpenSSL's EPROTO is a handshake failure only when it says so (a server that speaks no TLS: "wrong version number").
 */
const HANDSHAKE_WORDS =
	/wrong version number|handshake|unsupported protocol|no protocols available/i;

/** A connection that provably never carried the request. */
export function neverOpened(
	failure: Pick<FailedExchange, 'code' | 'syscall' | 'message' | 'detail'>,
): boolean {
	const { code } = failure;
	if (code === undefined) return false;
	if (NEVER_CONNECTED.has(code) || HANDSHAKE.has(code)) return true;
	if (UNREACHABLE.has(code)) return failure.syscall === 'connect';
	return code === 'EPROTO' && HANDSHAKE_WORDS.test(`${failure.detail ?? ''} ${failure.message}`);
}

/**
 * The provider's own JSON answer that it did not accept the request (every campaign error says `success: false`:
 * docs/provider-api.md#campaign-response).
 */
export function isOwnRefusal(body: unknown): boolean {
	return (
		typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false
	);
}

/** An HTTP status (with its body) that proves the provider refused the request before processing it. */
export function provesRefusal(status: number, body: unknown): boolean {
	// Whatever the status, a body saying it was accepted is taken at its word.
	if (confirmsAcceptance(body)) return false;
	if (status >= 400 && status < 500) return true;
	return status === 503 && isOwnRefusal(body);
}

/** Whether a failed exchange may have been processed: false only when it provably was not. */
export function mayHaveBeenProcessed(failure: FailedExchange): boolean {
	// The credential's login was refused: the request itself was never sent.
	if (failure.loginFailed) return false;
	if (failure.status !== undefined) return !provesRefusal(failure.status, failure.body);
	return !neverOpened(failure);
}

/** A 2xx answer confirms acceptance only with the provider's `success: true`. */
export function confirmsAcceptance(body: unknown): boolean {
	return (
		typeof body === 'object' && body !== null && (body as { success?: unknown }).success === true
	);
}
