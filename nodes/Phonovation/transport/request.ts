// Calls to the provider: the campaign API with its Bearer token, plain requests, and their URLs.
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { secureEndpoint } from '../../shared/endpoints';
import { DEFAULT_TIMEOUT_MS } from '../domain/rules';
import type { FailedExchange } from './failedExchange';
import { describeFailure, providerError } from './failures';

export const CREDENTIAL = 'phonovationApi';

type Context = IExecuteFunctions | ILoadOptionsFunctions;

interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the credential's Base URL, e.g. `/api/v2/Campaign`. */
	path: string;
	/** The full URL when the caller already has it (saves loading the credential again). */
	url?: string;
	/** JSON: an object, or bytes already serialised. */
	body?: IDataObject | Buffer;
	timeoutMs?: number;
	itemIndex?: number;
	/** The execution's cancel signal: the Stop button or a workflow Timeout aborts the request. */
	abortSignal?: AbortSignal;
}

/** The full URL of a campaign-API path for these credentials; an unsafe Base URL is an error before any request. */
export async function apiUrl(ctx: Context, path: string): Promise<string> {
	const credentials = await ctx.getCredentials(CREDENTIAL);
	return secureEndpoint(credentials, 'baseUrl', path);
}

export type Exchange<T> = { ok: true; body: T } | { ok: false; failure: FailedExchange };

/** An authenticated call to the campaign API (Bearer token; one re-login and retry on 401). */
export async function apiExchange<T>(ctx: Context, request: ApiRequest): Promise<Exchange<T>> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: request.url ?? (await apiUrl(ctx, request.path)),
		headers: { Accept: 'application/json' },
		json: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		// No redirects: n8n's default copies the Bearer token onto a redirect to any other origin, and
		// even with that turned off, follow-redirects keeps it for a subdomain on the same port, and the
		// body (numbers, message text) would still go there. A 3xx is reported as the provider's answer.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	if (request.abortSignal) options.abortSignal = request.abortSignal;
	if (request.body) {
		options.body = request.body;
		options.headers!['Content-Type'] = 'application/json';
	}
	try {
		return {
			ok: true,
			body: (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL, options)) as T,
		};
	} catch (error) {
		return { ok: false, failure: describeFailure(error) };
	}
}

/** `apiExchange`, with a failure thrown as a clear error about `what`. */
export async function apiRequest<T>(ctx: Context, request: ApiRequest, what: string): Promise<T> {
	const exchange = await apiExchange<T>(ctx, request);
	if (!exchange.ok) throw providerError(ctx, what, exchange.failure, request.itemIndex);
	return exchange.body;
}

export interface PlainResponse {
	status: number;
	body: unknown;
}

/**
 * An unauthenticated call (health check, legacy API whose credentials travel in the form body).
 * Never throws on HTTP status; transport failures come back as a `FailedExchange`.
 */
export async function plainRequest(
	ctx: IExecuteFunctions,
	options: IHttpRequestOptions,
): Promise<PlainResponse | FailedExchange> {
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

export function isFailure(response: PlainResponse | FailedExchange): response is FailedExchange {
	return 'message' in response;
}
