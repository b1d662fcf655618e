import type { IDataObject } from 'n8n-workflow';

import { FormFields, formFieldsFromObject, parseFormBody } from './formBody';
import { badRequest, RelayRejection } from './rejection';

/** Relays are a few hundred bytes; anything this large is not from the provider. */
export const MAX_BODY_BYTES = 64 * 1024;

export type RelayBody =
	| { kind: 'form'; fields: FormFields }
	| { kind: 'json'; value: IDataObject };

/** The parts of n8n's (express) request the trigger reads. */
export interface RelayHttpRequest {
	headers: Record<string, string | string[] | undefined>;
	rawBody?: unknown;
	body?: unknown;
}

const FORM = 'application/x-www-form-urlencoded';

function mediaTypeOf(header: string | string[] | undefined): string {
	const value = Array.isArray(header) ? header[0] : header;
	return (value ?? '').split(';')[0].trim().toLowerCase();
}

function kindOf(mediaType: string): RelayBody['kind'] {
	if (mediaType === FORM) return 'form';
	if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'json';
	throw badRequest(
		`Unsupported content type "${mediaType || 'none'}": relays and receipts are ${FORM}, processing results application/json`,
	);
}

function utf8(bytes: Buffer): string | undefined {
	try {
		return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
	} catch {
		return undefined;
	}
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

function jsonObject(value: unknown): IDataObject {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw badRequest('JSON body is not an object');
	}
	return value as IDataObject;
}

function fromText(kind: RelayBody['kind'], text: string): RelayBody {
	if (text.trim() === '') throw badRequest('Empty body');
	if (kind === 'form') return { kind, fields: parseFormBody(text) };
	const value = parseJson(text);
	if (value === undefined) throw badRequest('Body is not valid JSON');
	return { kind, value: jsonObject(value) };
}

function tooLarge(): RelayRejection {
	return new RelayRejection(413, `Body larger than ${MAX_BODY_BYTES / 1024} KiB`);
}

/**
 * Reads the relay from the exact bytes received (`rawBody`), so signatures are checked over
 * what the provider sent rather than over a re-serialised object. Falls back to the host's
 * parsed body only when no raw body is available.
 */
export function readRelayBody(request: RelayHttpRequest): RelayBody {
	const { rawBody, body } = request;
	if (Buffer.isBuffer(rawBody) && rawBody.length > MAX_BODY_BYTES) throw tooLarge();
	const kind = kindOf(mediaTypeOf(request.headers['content-type']));

	if (Buffer.isBuffer(rawBody)) {
		const text = utf8(rawBody);
		if (text === undefined) throw badRequest('Body is not valid UTF-8');
		return fromText(kind, text);
	}
	if (typeof body === 'string') {
		if (Buffer.byteLength(body, 'utf8') > MAX_BODY_BYTES) throw tooLarge();
		return fromText(kind, body);
	}
	if (body === null || typeof body !== 'object' || Object.keys(body).length === 0) {
		throw badRequest('Empty body');
	}
	if (Buffer.byteLength(JSON.stringify(body), 'utf8') > MAX_BODY_BYTES) throw tooLarge();
	return kind === 'form'
		? { kind, fields: formFieldsFromObject(body as Record<string, unknown>) }
		: { kind, value: jsonObject(body) };
}
