// A failed provider call: its status, body and network code dug out, made a safe and clear error.
import type { IExecuteFunctions, ILoadOptionsFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isLoginFailure } from '../../shared/loginFailure';
import type { FailedExchange } from './failedExchange';
import { mayHaveBeenProcessed } from './processed';

type Context = IExecuteFunctions | ILoadOptionsFunctions;

/**
 * A provider call that failed because the credential's login was refused (or the token server
 * could not be used): nothing reached the provider, and repeating it fails the same way.
 */
export class CredentialRefusedError extends NodeApiError {}

function parsedBody(data: unknown): unknown {
	if (typeof data !== 'string') return data;
	try {
		return JSON.parse(data);
	} catch {
		return data;
	}
}

type Layer = Record<string, unknown> & {
	response?: { status?: number; data?: unknown; body?: unknown; headers?: Record<string, unknown> };
};

function causeChain(error: unknown): Layer[] {
	const chain: Layer[] = [];
	let current = error as Layer | undefined;
	for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
		chain.push(current);
		current = current.cause as Layer | undefined;
	}
	return chain;
}

/** Digs status, body and Retry-After out of axios / n8n error wrappers. */
export function describeFailure(error: unknown): FailedExchange {
	const failure: FailedExchange = { message: String((error as Error)?.message ?? error) };
	for (const layer of causeChain(error)) {
		const response = layer.response;
		if (response?.status && failure.status === undefined) failure.status = Number(response.status);
		if (response && failure.body === undefined)
			failure.body = parsedBody(response.data ?? response.body);
		const retryAfter = response?.headers?.['retry-after'];
		if (retryAfter !== undefined && failure.retryAfter === undefined)
			failure.retryAfter = String(retryAfter);
		if (failure.status === undefined && layer.httpCode && /^\d{3}$/.test(String(layer.httpCode))) {
			failure.status = Number(layer.httpCode);
		}
		if (typeof layer.code === 'string' && failure.code === undefined) {
			failure.code = layer.code;
			if (typeof layer.message === 'string') failure.detail = layer.message;
		}
		if (typeof layer.syscall === 'string' && failure.syscall === undefined)
			failure.syscall = layer.syscall;
	}
	if (isLoginFailure(error)) failure.loginFailed = true;
	return failure;
}

/** A value of the provider's as text: nested objects and arrays flattened, empty parts left out. */
function flatText(value: unknown, depth = 0): string {
	if (value === null || value === undefined) return '';
	if (typeof value !== 'object') return String(value);
	if (depth > 3) return '';
	const parts = Array.isArray(value) ? value : Object.values(value as object);
	return parts
		.map((part) => flatText(part, depth + 1))
		.filter((part) => part !== '')
		.join(': ');
}

/**
 * The provider's `errors` as strings, whatever it sent: strings, `{ msisdn, error }` objects (nested
 * ones too), nulls; a lone string is one error.
 */
export function errorStrings(errors: unknown): string[] {
	if (!Array.isArray(errors)) {
		const one = typeof errors === 'string' ? errors : flatText(errors);
		return one ? [one] : [];
	}
	const out: string[] = [];
	for (const error of errors) {
		const text = typeof error === 'string' ? error : flatText(error);
		if (text !== '') out.push(text);
	}
	return out;
}

const LISTED_ERRORS = 20;

/** The provider's own words from a CampaignResponse-shaped (or any) error body. */
export function providerText(body: unknown): string {
	if (body === undefined || body === null || body === '') return '';
	if (typeof body === 'string') return body.trim().slice(0, 500);
	const b = body as {
		message?: unknown;
		errors?: unknown;
		error?: unknown;
		error_description?: unknown;
	};
	const parts: string[] = [];
	if (typeof b.message === 'string' && b.message) parts.push(b.message.slice(0, 500));
	const errors = errorStrings(b.errors);
	if (errors.length) {
		const more = errors.length > LISTED_ERRORS ? `; and ${errors.length - LISTED_ERRORS} more` : '';
		parts.push(errors.slice(0, LISTED_ERRORS).join('; ').slice(0, 500) + more);
	}
	if (typeof b.error === 'string') parts.push(b.error.slice(0, 500));
	if (typeof b.error_description === 'string') parts.push(b.error_description.slice(0, 500));
	return parts.length ? parts.join(': ') : JSON.stringify(body).slice(0, 500);
}

const NETWORK_WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was closed before an answer arrived',
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name could not be resolved',
	EAI_AGAIN: 'the host name could not be resolved',
	EHOSTUNREACH: 'the host is unreachable',
};

const STATUS_HINTS: Record<number, string> = {
	400: 'the provider rejected the request as invalid',
	401: 'the provider still refused the access token after logging in again; check that the account has API access',
	415: 'the provider only accepts application/json',
	422: 'the provider could not process the values sent',
	429: 'too many requests; wait before sending again',
	500: 'the provider had an internal error',
};

const isTimeout = (failure: FailedExchange) =>
	failure.code === 'ECONNABORTED' ||
	failure.code === 'ETIMEDOUT' ||
	/timeout/i.test(failure.message);

const isRedirect = (status: number | undefined) =>
	status !== undefined && status >= 300 && status < 400;

/** One line for the user. Network codes stay out of it: n8n would swap it for a generic "retry" text. */
function messageFor(what: string, failure: FailedExchange): string {
	const { status } = failure;
	// A redirect's body only repeats where it points; it was not followed, so that place is no news.
	if (isRedirect(status)) return `Phonovation answered HTTP ${status} (a redirect) to ${what}`;
	if (status) {
		const text = providerText(failure.body);
		const retryAfter =
			status === 429 && failure.retryAfter ? ` (Retry-After: ${failure.retryAfter} s)` : '';
		return `Phonovation answered HTTP ${status} to ${what}${text ? `: ${text}` : ''}${retryAfter}`;
	}
	if (failure.code === 'ERR_CANCELED')
		return `The execution was stopped while waiting for Phonovation's answer to ${what}`;
	if (isTimeout(failure)) return `Phonovation did not answer ${what} in time`;
	if (failure.code) {
		return `Could not reach Phonovation for ${what}: ${NETWORK_WORDS[failure.code] ?? 'the request failed before an answer arrived'}`;
	}
	// Not an HTTP exchange at all, e.g. the login in preAuthentication was refused.
	return failure.message;
}

const REDIRECT_HINT =
	"the answer was a redirect, which is never followed, so the access token and the request went nowhere else; check the credential's Base URL";

function hintFor(status: number | undefined): string | undefined {
	if (!status) return undefined;
	if (isRedirect(status)) return REDIRECT_HINT;
	return STATUS_HINTS[status] ?? (status >= 500 ? 'the provider had a server error' : undefined);
}

function descriptionFor(failure: FailedExchange): string | undefined {
	const { status, code } = failure;
	const hint = hintFor(status);
	// A redirect's hint already says what to check.
	const unknownOutcome =
		!isRedirect(status) &&
		(status !== undefined || code !== undefined) &&
		mayHaveBeenProcessed(failure);
	const parts = [
		hint ? `${hint[0].toUpperCase()}${hint.slice(1)}.` : undefined,
		!status && code ? `Network error ${code}.` : undefined,
		unknownOutcome
			? 'The request was not repeated automatically: a repeated campaign could be sent and billed twice. Check the provider before sending again.'
			: undefined,
	].filter(Boolean);
	return parts.length ? parts.join(' ') : undefined;
}

/** A NodeApiError built only from safe parts: status, the provider's text, the operation. */
export function providerError(
	ctx: Context,
	what: string,
	failure: FailedExchange,
	itemIndex?: number,
): NodeApiError {
	const message = messageFor(what, failure);
	const httpCode = failure.status ? String(failure.status) : undefined;
	const ErrorType = failure.loginFailed ? CredentialRefusedError : NodeApiError;
	return new ErrorType(
		ctx.getNode(),
		{
			message,
			httpCode: httpCode ?? null,
			body: (failure.body ?? null) as JsonObject,
		} as JsonObject,
		{ message, description: descriptionFor(failure), httpCode, itemIndex },
	);
}
