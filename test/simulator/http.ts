import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** One request as the handlers see it. */
export interface Exchange {
	method: string;
	/** As received, without the query. */
	path: string;
	/** Lower-case, without trailing slash: what routes match on. */
	route: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	body: Buffer;
	/**
	 * When a held request (a `delay` fault) was authenticated: on arrival, as the provider does
	 * before it processes it; its token may expire while it is held. Unset: checked when handled.
	 */
	authenticatedAt?: number;
}

export interface Reply {
	status: number;
	headers: Record<string, string>;
	body: string;
}

export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export class BodyTooLarge extends Error {}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
	return {
		status,
		headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
		body: JSON.stringify(value),
	};
}

export function text(status: number, value: string, headers: Record<string, string> = {}): Reply {
	return {
		status,
		headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers },
		body: value,
	};
}

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaType(headers: IncomingHttpHeaders): string {
	return String(headers['content-type'] ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY_BYTES) throw new BodyTooLarge('request body too large');
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** Parses a JSON body; an empty body is `{}`. */
export function parseJson(body: Buffer): unknown {
	const raw = body.toString('utf8').trim();
	return raw === '' ? {} : JSON.parse(raw);
}

/** An error a route reports with this HTTP status (e.g. 409 when no relay URL is set). */
export class SimulatorError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}
