// The Phonovation API credential: its fields, the password-grant login, the Bearer token, its test.
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { assertSecureEndpoints, secureEndpoint, shown } from '../nodes/shared/endpoints';
import { LoginFailedError } from '../nodes/shared/loginFailure';

/** Form-encoded OAuth 2.0 password grant fields; `client_id` and `grant_type` never change. */
export const TOKEN_CLIENT_ID = 'ismstoken';

/** The parts of an n8n/axios HTTP error that the token server's answer leaves. */
interface TokenServerError {
	httpCode?: unknown;
	statusCode?: unknown;
	response?: { status?: unknown; data?: unknown };
}

const isRedirect = (status: number | undefined) =>
	status !== undefined && status >= 300 && status < 400;

/**
 * The token URL, once all three URL fields are safe: an unsafe one fails the login (and the Test button) before
 * anything is sent.
 */
function tokenUrl(credentials: ICredentialDataDecryptedObject): string {
	try {
		assertSecureEndpoints(credentials);
		return secureEndpoint(credentials, 'authUrl', '/token');
	} catch (error) {
		// A login failure, so callers know nothing reached the provider and a retry fails the same way.
		throw new LoginFailedError((error as Error).message);
	}
}

function statusOf(error: TokenServerError): number | undefined {
	const n = Number(error?.response?.status ?? error?.statusCode ?? error?.httpCode);
	return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The OAuth `error` code of a token response (e.g. `invalid_grant`); never the request. */
function oauthErrorOf(error: TokenServerError): string | undefined {
	let data = error?.response?.data;
	if (typeof data === 'string') {
		try {
			data = JSON.parse(data);
		} catch {
			return undefined;
		}
	}
	const code = (data as { error?: unknown } | undefined)?.error;
	return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? code : undefined;
}

export class PhonovationApi implements ICredentialType {
	name = 'phonovationApi';

	displayName = 'Phonovation API';

	icon: Icon = {
		light: 'file:../icons/phonovation.svg',
		dark: 'file:../icons/phonovation.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
			description: 'The InteractSMS account username issued by Phonovation',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The InteractSMS account password issued by Phonovation',
		},
		{
			displayName: 'Relay Secret',
			name: 'relaySecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The key Phonovation uses for the SMS-Verify MD5 of inbound relays and delivery receipts. Request it from Phonovation support. The trigger and Verify Relay check relays with it; the conversation operations prove with it what they hand to a waiting run.',
		},
		{
			displayName: 'URL Token',
			name: 'urlToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'A secret of your choice that processing results (V2 API webhooks) must carry as ?token=YOUR_TOKEN in the relay URL given to Phonovation; they carry no signature. The trigger and Verify Relay check it.',
		},
		{
			displayName: 'API ID',
			name: 'apiId',
			type: 'string',
			default: '',
			description:
				'Numeric API ID issued with the account. Only the legacy send API (sendmessage.aspx) needs it.',
		},
		{
			displayName: 'Auth URL',
			name: 'authUrl',
			type: 'string',
			default: 'https://auth.interactsms.com',
			description: 'Token server. Change it only to use the local simulator.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.interactsms.com',
			description:
				'Campaign API host (without /api/v2). Change it only to use the local simulator.',
		},
		{
			displayName: 'Legacy Base URL',
			name: 'legacyBaseUrl',
			type: 'string',
			default: 'https://secure.interactsms.com/api/v1',
			description: 'Legacy API base. Change it only to use the local simulator.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/**
	 * Logs in with the password grant. n8n calls this when the stored token is empty and again
	 * (once) after a request answers 401; access tokens live 120 s, so that path is routine.
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const url = tokenUrl(credentials);
		const where = shown(url);
		let response: { access_token?: unknown };
		try {
			response = (await this.helpers.httpRequest({
				method: 'POST',
				url,
				headers: {
					'Content-Type': 'application/x-www-form-urlencoded',
					Accept: 'application/json',
				},
				body: new URLSearchParams({
					grant_type: 'password',
					client_id: TOKEN_CLIENT_ID,
					username: String(credentials.username ?? ''),
					password: String(credentials.password ?? ''),
				}).toString(),
				json: true,
				// A redirect (307/308 keep the method and body) would carry the password to its Location.
				disableFollowRedirect: true,
			})) as { access_token?: unknown };
		} catch (error) {
			// A new error on purpose: the original carries the request body, which holds the password.
			const status = statusOf(error as TokenServerError);
			const code = oauthErrorOf(error as TokenServerError);
			if (isRedirect(status)) {
				throw new LoginFailedError(
					`Phonovation's token server at ${where} answered HTTP ${status} (a redirect). Logins never follow redirects, so the password is not sent anywhere else. Check the credential's Auth URL.`,
				);
			}
			if (status === 401 || code === 'invalid_grant') {
				throw new LoginFailedError(
					`Phonovation refused the username or password (HTTP ${status ?? '?'} from ${where}). Check the credential's Username and Password.`,
				);
			}
			const detail = status ? `HTTP ${status}${code ? ` ${code}` : ''}` : 'no HTTP response';
			throw new LoginFailedError(
				`Could not log in to Phonovation at ${where} (${detail}). Check the credential's Auth URL.`,
			);
		}
		if (typeof response?.access_token !== 'string' || response.access_token === '') {
			throw new LoginFailedError(
				`Phonovation's token server at ${where} answered without an access token.`,
			);
		}
		return { accessToken: response.access_token };
	}

	/**
	 * The Bearer header, set directly: n8n runs this for every request, and a generic
	 * `=Bearer {{$credentials.accessToken}}` costs an expression evaluation each time (about a sixth
	 * of the CPU of a personalised send, measured).
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.accessToken ?? '')}`,
			},
		};
	}

	test: ICredentialTestRequest = {
		request: {
			// An n8n expression, so it cannot call secureEndpoint(); n8n runs preAuthentication before every
			// Test, and that has checked the Base URL. It drops trailing slashes the same way.
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v2/senderlist',
			method: 'GET',
			// As for every API request (transport/request.ts): the token never follows a redirect.
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
	};
}
