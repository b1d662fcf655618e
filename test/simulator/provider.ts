import { randomUUID } from 'node:crypto';

import { checkCampaign, type AcceptedRecipient } from './campaign';
import type { SimulatorConfig } from './config';
import { type Exchange, json, mediaType, type Reply, text } from './http';
import type { TokenIssuer } from './jwt';
import { handleLegacySend } from './legacy';

export const TOKEN_CLIENT_ID = 'ismstoken';
export const TOKEN_SCOPE = 'email profile client_id';

export const UNAUTHORIZED_BODY = {
	success: false,
	message: 'Unauthorized',
	errors: ['401 Unauthorized'],
};
export const UNSUPPORTED_MEDIA_TYPE_BODY = {
	success: false,
	message: 'Unsupported Media Type',
	errors: ['Only application/json is allowed'],
};

/** What the provider endpoints read and write on the simulator. */
export interface ProviderState {
	config: SimulatorConfig;
	tokens: TokenIssuer;
	now(): number;
	recordCampaign(entry: {
		body: unknown;
		sendAt: string | null;
		accepted: AcceptedRecipient[];
		errors: string[];
	}): void;
	recordLegacySend(form: Record<string, string>, status: string): void;
}

type Handler = (exchange: Exchange, state: ProviderState) => Reply;

/** Routes on the lower-cased path; each lists the methods it answers. */
export const PROVIDER_ROUTES: Record<string, Partial<Record<string, Handler>>> = {
	'/token': { POST: issueToken },
	'/api/v2/campaign': { POST: queueCampaign },
	'/api/v2/senderlist': { GET: listSenders },
	'/health': { GET: () => text(200, 'Healthy') },
	'/api/v1/sendmessage.aspx': { GET: legacySend, POST: legacySend },
	'/sendmessage.aspx': { GET: legacySend, POST: legacySend },
};

function oauthError(status: number, error: string, description: string): Reply {
	return json(status, { error, error_description: description }, { 'Cache-Control': 'no-store' });
}

/** OAuth 2.0 password grant, Keycloak-style errors (the refresh grant is not documented, so not offered). */
function issueToken(exchange: Exchange, state: ProviderState): Reply {
	if (mediaType(exchange.headers) !== 'application/x-www-form-urlencoded') {
		return oauthError(
			400,
			'invalid_request',
			'Content type must be application/x-www-form-urlencoded',
		);
	}
	const form = new URLSearchParams(exchange.body.toString('utf8'));
	if (form.get('client_id') !== TOKEN_CLIENT_ID) {
		return oauthError(400, 'invalid_client', 'Invalid client or Invalid client credentials');
	}
	if (form.get('grant_type') !== 'password') {
		return oauthError(400, 'unsupported_grant_type', 'Unsupported grant_type');
	}
	const { username, password, tokenTtl, refreshTtl } = state.config;
	if (form.get('username') !== username || form.get('password') !== password) {
		return oauthError(401, 'invalid_grant', 'Invalid user credentials');
	}
	const iat = Math.floor(state.now() / 1000);
	const common = { sub: username, azp: TOKEN_CLIENT_ID, sid: randomUUID(), iat };
	return json(
		200,
		{
			access_token: state.tokens.sign({
				...common,
				typ: 'Bearer',
				preferred_username: username,
				scope: TOKEN_SCOPE,
				exp: iat + tokenTtl,
			}),
			expires_in: tokenTtl,
			refresh_expires_in: refreshTtl,
			refresh_token: state.tokens.sign({ ...common, typ: 'Refresh', exp: iat + refreshTtl }),
			token_type: 'Bearer',
			scope: TOKEN_SCOPE,
		},
		{ 'Cache-Control': 'no-store' },
	);
}

/** undefined when the Bearer token is valid now, else the 401 to answer. */
function unauthorized(exchange: Exchange, state: ProviderState): Reply | undefined {
	const match = /^Bearer\s+(\S+)\s*$/i.exec(String(exchange.headers.authorization ?? ''));
	if (!match) return json(401, UNAUTHORIZED_BODY, { 'WWW-Authenticate': 'Bearer' });
	const claims = state.tokens.verify(match[1]);
	if (!claims || claims.typ !== 'Bearer' || typeof claims.exp !== 'number') {
		return json(401, UNAUTHORIZED_BODY, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
	}
	if (claims.exp * 1000 <= (exchange.authenticatedAt ?? state.now())) {
		return json(401, UNAUTHORIZED_BODY, {
			'WWW-Authenticate': 'Bearer error="invalid_token", error_description="The token expired"',
		});
	}
	return undefined;
}

function campaignError(errors: string[]): Reply {
	return json(400, { success: false, message: 'Error scheduling campaign', errors });
}

function queueCampaign(exchange: Exchange, state: ProviderState): Reply {
	const denied = unauthorized(exchange, state);
	if (denied) return denied;
	if (mediaType(exchange.headers) !== 'application/json')
		return json(415, UNSUPPORTED_MEDIA_TYPE_BODY);
	let body: unknown;
	try {
		body = JSON.parse(exchange.body.toString('utf8'));
	} catch {
		return campaignError(['The request body is not valid JSON']);
	}
	const check = checkCampaign(body, state.config.senders, state.now());
	if (!check.ok) return campaignError(check.errors);
	state.recordCampaign({
		body,
		sendAt: check.sendAt,
		accepted: check.accepted,
		errors: check.errors,
	});
	// The provider says "Campaign scheduled" for immediate sends too.
	return json(200, { success: true, message: 'Campaign scheduled', errors: check.errors });
}

function listSenders(exchange: Exchange, state: ProviderState): Reply {
	return (
		unauthorized(exchange, state) ??
		json(
			200,
			state.config.senders.map(({ name, type }) => ({ name, type })),
		)
	);
}

/** The legacy API: query and/or form body, always HTTP 200 with `<code>\n<message>\n`. */
function legacySend(exchange: Exchange, state: ProviderState): Reply {
	const form: Record<string, string> = Object.fromEntries(exchange.query);
	const type = mediaType(exchange.headers);
	if (exchange.method === 'POST' && (type === '' || type === 'application/x-www-form-urlencoded')) {
		Object.assign(form, Object.fromEntries(new URLSearchParams(exchange.body.toString('utf8'))));
	}
	const outcome = handleLegacySend(form, state.config);
	if (outcome.status) state.recordLegacySend(withoutPassword(form), outcome.status);
	return text(200, `${outcome.code}\n${outcome.message}\n`);
}

/** Recorded sends are shown by /_sim/ routes and the demo, so the password is masked. */
function withoutPassword(form: Record<string, string>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(form).map(([key, value]) => [
			key,
			key.toLowerCase() === 'password' ? '***' : value,
		]),
	);
}
