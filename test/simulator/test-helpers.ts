import { request } from 'undici';

import { LoopbackServer } from '../harness/loopback';
import type { Simulator } from './index';

export interface Response {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	json(): any;
}

/** One HTTP call over undici; `json` bodies are serialised, strings sent as they are. */
export async function call(
	url: string,
	options: {
		method?: string;
		headers?: Record<string, string>;
		body?: string;
		json?: unknown;
	} = {},
): Promise<Response> {
	const headers = { ...(options.headers ?? {}) };
	let body = options.body;
	if (options.json !== undefined) {
		body = JSON.stringify(options.json);
		headers['content-type'] ??= 'application/json';
	}
	const response = await request(url, {
		method: (options.method ?? (body === undefined ? 'GET' : 'POST')) as 'GET',
		headers,
		body,
	});
	const text = await response.body.text();
	return {
		status: response.statusCode,
		headers: response.headers,
		text,
		json: () => JSON.parse(text),
	};
}

export function form(fields: Record<string, string>): string {
	return new URLSearchParams(fields).toString();
}

export async function login(
	sim: Simulator,
	username = sim.config.username,
	password = sim.config.password,
) {
	return call(`${sim.url}/token`, {
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: form({ grant_type: 'password', client_id: 'ismstoken', username, password }),
	});
}

export async function accessToken(sim: Simulator): Promise<string> {
	const response = await login(sim);
	if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
	return response.json().access_token;
}

export async function postCampaign(
	sim: Simulator,
	body: unknown,
	token?: string,
	path = '/api/v2/Campaign',
) {
	return call(`${sim.url}${path}`, {
		headers: { authorization: `Bearer ${token ?? (await accessToken(sim))}` },
		json: body,
	});
}

/** A minimal valid campaign request, with overrides. */
export function campaign(overrides: Record<string, unknown> = {}) {
	return {
		text: 'Your order is on the way!',
		from: 'Phonovation',
		recipientInfo: [{ msisdn: '353861234567', notifyId: 'order-001' }],
		...overrides,
	};
}

/** A relay receiver on 127.0.0.1 that records what it gets and answers with `status`. */
export async function relayReceiver(status = 200, body = 'OK') {
	const server = new LoopbackServer((_req, res) => {
		res.writeHead(status, { 'Content-Type': 'text/plain' });
		res.end(body);
	});
	const url = await server.start();
	return { server, url: `${url}/webhook/phonovation` };
}

/**
 * Real (wall-clock) time just before and just after `act`: whatever `act` read from a clock that
 * follows real time lies within that bracket, however slow the machine is.
 */
export function withRealTimeBracket<T>(act: () => T): { value: T; before: number; after: number } {
	const before = Date.now();
	const value = act();
	return { value, before, after: Date.now() };
}

/** Resolves once `ready()` holds, checking on every turn of the event loop (no fixed sleep). */
export async function until(ready: () => boolean): Promise<void> {
	while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

/** Decodes a JWT part without verifying it. */
export function jwtPart(token: string, index: 0 | 1): any {
	return JSON.parse(Buffer.from(token.split('.')[index], 'base64url').toString('utf8'));
}
