// A received relay's body read: media type, the 64 KiB limit, the exact bytes, then form or JSON.
/**
 * Reads the body of the request we receive (a relay, receipt or processing result): its media
 * type, the 64 KiB limit (first from Content-Length), the exact bytes as UTF-8, then the form or
 * the JSON. Not to be confused with the campaign's requestBody.ts, which writes the body we send.
 */

import type { IDataObject } from 'n8n-workflow';

import { FormFields, formFieldsFromObject, parseFormBody } from './formBody';
import { jsonObject, parseJsonObject } from './jsonBody';
import { badRequest, RelayRejection } from './rejection';

/** Relays are a few hundred bytes; anything this large is not from the provider. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * A form relay is decoded at once (its signature is in it); a processing result's JSON is
 * parsed only when asked, after its URL token has been checked.
 */
export type RelayBody =
	{ kind: 'form'; fields: FormFields } | { kind: 'json'; value: () => IDataObject };

/** The parts of n8n's (express) request the trigger reads. */
export interface RelayHttpRequest {
	headers: Record<string, string | string[] | undefined>;
	rawBody?: unknown;
	body?: unknown;
	/** n8n's reader of the request's bytes, for content types its body parser left alone. */
	readRawBody?: () => Promise<void>;
}

const FORM = 'application/x-www-form-urlencoded';

function mediaTypeOf(header: string | string[] | undefined): string {
	const value = Array.isArray(header) ? header[0] : header;
	return (value ?? '').split(';')[0].trim().toLowerCase();
}

/** `application/json` and every `application/*+json` (e.g. `application/cloudevents+json`). */
function isJson(mediaType: string): boolean {
	return mediaType === 'application/json' || /^application\/[^/]+\+json$/.test(mediaType);
}

function kindOf(mediaType: string): RelayBody['kind'] {
	if (mediaType === FORM) return 'form';
	if (isJson(mediaType)) return 'json';
	throw badRequest(
		'Unsupported content type: relays and receipts are form-encoded, processing results JSON',
	);
}

/**
 * One strict decoder for every relay: without `stream`, each decode() starts afresh (a failed one
 * included), so sharing it changes nothing but the per-relay construction.
 */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function utf8(bytes: Buffer): string {
	try {
		return STRICT_UTF8.decode(bytes);
	} catch {
		throw badRequest('Body is not valid UTF-8');
	}
}

function fromText(kind: RelayBody['kind'], text: string): RelayBody {
	if (kind === 'json') return { kind, value: () => parseJsonObject(text) };
	if (text.trim() === '') throw badRequest('Empty body');
	return { kind, fields: parseFormBody(text) };
}

function tooLarge(): RelayRejection {
	return new RelayRejection(413, `Body larger than ${MAX_BODY_BYTES / 1024} KiB`);
}

function assertSize(bytes: number): void {
	if (bytes > MAX_BODY_BYTES) throw tooLarge();
}

/** Whether a body says, by its Content-Length, that it is larger than a relay may be. */
export function declaredTooLarge(header: unknown): boolean {
	const declared = Number(Array.isArray(header) ? header[0] : header);
	return Number.isFinite(declared) && declared > MAX_BODY_BYTES;
}

/** Refuses a body that says it is too large before a byte of it is read or decoded. */
function assertDeclaredSize(header: string | string[] | undefined): void {
	if (declaredTooLarge(header)) throw tooLarge();
}

/** Builds the relay from the host's parsed body (only when no raw body exists). */
function fromParsed(kind: RelayBody['kind'], body: unknown): RelayBody {
	if (typeof body === 'string') {
		assertSize(Buffer.byteLength(body, 'utf8'));
		return fromText(kind, body);
	}
	if (body === null || typeof body !== 'object' || Object.keys(body).length === 0) {
		throw badRequest('Empty body');
	}
	assertSize(Buffer.byteLength(JSON.stringify(body), 'utf8'));
	return kind === 'form'
		? { kind, fields: formFieldsFromObject(body as Record<string, unknown>) }
		: { kind, value: () => jsonObject(body) };
}

/**
 * Reads the relay from the exact bytes received (`rawBody`), so signatures are checked over
 * what the provider sent rather than over a re-serialised object. n8n's body parser reads
 * those bytes for the types it parses; for others (`application/*+json` on trigger version
 * 1.1) the node asks n8n to read them. The host's parsed body is the last resort.
 */
export async function readRelayBody(request: RelayHttpRequest): Promise<RelayBody> {
	assertDeclaredSize(request.headers['content-length']);
	if (Buffer.isBuffer(request.rawBody)) assertSize(request.rawBody.length);
	const kind = kindOf(mediaTypeOf(request.headers['content-type']));
	if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	const { rawBody } = request;
	if (!Buffer.isBuffer(rawBody)) return fromParsed(kind, request.body);
	assertSize(rawBody.length);
	if (kind === 'json') return { kind, value: () => parseJsonObject(utf8(rawBody)) };
	return fromText(kind, utf8(rawBody));
}
