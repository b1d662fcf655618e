import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, UserError } from 'n8n-workflow';

export const CREDENTIAL = 'phonovationApi';

/** Default time a provider request may take before it fails; a 400,000-recipient body is large. */
export const DEFAULT_TIMEOUT_MS = 120_000;

type Context = IExecuteFunctions | ILoadOptionsFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the credential's Base URL, e.g. `/api/v2/Campaign`. */
	path: string;
	/** JSON: an object, or bytes already serialised. */
	body?: IDataObject | Buffer;
	timeoutMs?: number;
	itemIndex?: number;
}

/** What a failed HTTP exchange tells us, without request options (they hold the token). */
export interface HttpFailure {
	status?: number;
	body?: unknown;
	retryAfter?: string;
	code?: string;
	message: string;
	/** The credential's login (preAuthentication) failed: repeating the call would fail the same way. */
	loginFailed?: boolean;
}

export function trimSlash(url: unknown): string {
	return String(url ?? '').replace(/\/+$/, '');
}

function parsedBody(data: unknown): unknown {
	if (typeof data !== 'string') return data;
	try {
		return JSON.parse(data);
	} catch {
		return data;
	}
}

/** Digs status, body and Retry-After out of axios / n8n error wrappers. */
export function describeFailure(error: unknown): HttpFailure {
	const chain: Array<Record<string, unknown>> = [];
	let current = error as Record<string, unknown> | undefined;
	for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
		chain.push(current);
		current = current.cause as Record<string, unknown> | undefined;
	}
	const failure: HttpFailure = { message: String((error as Error)?.message ?? error) };
	for (const e of chain) {
		const response = e.response as
			| { status?: number; data?: unknown; body?: unknown; headers?: Record<string, unknown> }
			| undefined;
		if (response?.status && failure.status === undefined) failure.status = Number(response.status);
		if (response && failure.body === undefined) failure.body = parsedBody(response.data ?? response.body);
		const retryAfter = response?.headers?.['retry-after'];
		if (retryAfter !== undefined && failure.retryAfter === undefined) failure.retryAfter = String(retryAfter);
		if (failure.status === undefined && e.httpCode && /^\d{3}$/.test(String(e.httpCode))) {
			failure.status = Number(e.httpCode);
		}
		if (typeof e.code === 'string' && failure.code === undefined) failure.code = e.code;
		if (e instanceof UserError) failure.loginFailed = true;
	}
	return failure;
}

/** The provider's own words from a CampaignResponse-shaped (or any) error body. */
export function providerText(body: unknown): string {
	if (body === undefined || body === null || body === '') return '';
	if (typeof body === 'string') return body.trim().slice(0, 500);
	const b = body as { message?: unknown; errors?: unknown; error?: unknown; error_description?: unknown };
	const parts: string[] = [];
	if (typeof b.message === 'string' && b.message) parts.push(b.message);
	if (Array.isArray(b.errors) && b.errors.length) parts.push(b.errors.map(String).join('; '));
	if (typeof b.error === 'string') parts.push(b.error);
	if (typeof b.error_description === 'string') parts.push(b.error_description);
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

/** A NodeApiError built only from safe parts: status, the provider's text, the operation. */
export function providerError(ctx: Context, what: string, failure: HttpFailure, itemIndex?: number) {
	const { status } = failure;
	const text = providerText(failure.body);
	let message: string;
	// Network codes stay out of the message: n8n would swap it for a generic "retry" text, and
	// retrying a campaign can double-send.
	if (status) {
		message = `Phonovation answered HTTP ${status} to ${what}${text ? `: ${text}` : ''}`;
		if (status === 429 && failure.retryAfter) message += ` (Retry-After: ${failure.retryAfter} s)`;
	} else if (failure.code === 'ECONNABORTED' || failure.code === 'ETIMEDOUT' || /timeout/i.test(failure.message)) {
		message = `Phonovation did not answer ${what} in time`;
	} else if (failure.code) {
		message = `Could not reach Phonovation for ${what}: ${NETWORK_WORDS[failure.code] ?? 'the request failed before an answer arrived'}`;
	} else {
		// Not an HTTP exchange at all, e.g. the login in preAuthentication was refused.
		message = failure.message;
	}
	const hint = status ? (STATUS_HINTS[status] ?? (status >= 500 ? 'the provider had a server error' : undefined)) : undefined;
	const description = [
		hint ? `${hint[0].toUpperCase()}${hint.slice(1)}.` : undefined,
		!status && failure.code ? `Network error ${failure.code}.` : undefined,
		(!status && failure.code) || (status && status >= 500)
			? 'The request was not repeated automatically: a repeated campaign could be sent and billed twice. Check the provider before sending again.'
			: undefined,
	]
		.filter(Boolean)
		.join(' ');
	const error = new NodeApiError(
		ctx.getNode(),
		{ message, httpCode: status ? String(status) : null, body: (failure.body ?? null) as JsonObject } as JsonObject,
		{ message, description: description || undefined, httpCode: status ? String(status) : undefined, itemIndex },
	);
	if (failure.loginFailed) error.context.loginFailed = true;
	return error;
}

export function isLoginFailure(error: unknown): boolean {
	return (error as NodeApiError)?.context?.loginFailed === true;
}

/** An authenticated call to the campaign API (Bearer token; one re-login and retry on 401). */
export async function apiRequest<T>(ctx: Context, request: ApiRequest, what: string): Promise<T> {
	const credentials = await ctx.getCredentials(CREDENTIAL);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${trimSlash(credentials.baseUrl)}${request.path}`,
		headers: { Accept: 'application/json' },
		json: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	if (request.body) {
		options.body = request.body;
		options.headers!['Content-Type'] = 'application/json';
	}
	try {
		return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL, options)) as T;
	} catch (error) {
		throw providerError(ctx, what, describeFailure(error), request.itemIndex);
	}
}

export interface PlainResponse {
	status: number;
	body: unknown;
}

/**
 * An unauthenticated call (health check, legacy API whose credentials travel in the form body).
 * Never throws on HTTP status; transport failures come back as `HttpFailure`.
 */
export async function plainRequest(
	ctx: IExecuteFunctions,
	options: IHttpRequestOptions,
): Promise<PlainResponse | HttpFailure> {
	try {
		const response = (await ctx.helpers.httpRequest({
			...options,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
		})) as { statusCode: number; body: unknown };
		return { status: response.statusCode, body: response.body };
	} catch (error) {
		return describeFailure(error);
	}
}

export function isFailure(response: PlainResponse | HttpFailure): response is HttpFailure {
	return 'message' in response;
}
