import { createHash } from 'node:crypto';

import type { INode } from 'n8n-workflow';

import { PhonovationApi } from '../../../credentials/PhonovationApi.credentials';
import { PhonovationTrigger } from '../../../nodes/PhonovationTrigger/PhonovationTrigger.node';
import { Engine } from '../../harness/engine';
import type { WebhookOutcome, WebhookRequest } from '../../harness/webhook';
import { runWebhook } from '../../harness/webhook';

export const RELAY_SECRET = 'Relay-Secret-Distinctive-4417';

/** Computed here independently of the node's own signer. */
export function md5(text: string): string {
	return createHash('md5').update(text, 'utf8').digest('hex');
}

export type Fields = Array<[string, string]>;

/**
 * Form-encodes fields as a relay sender does: `spaces: 'plus'` is URLSearchParams (and the
 * simulator) style, `'percent'` writes `%20` as encodeURIComponent does.
 */
export function encodeForm(fields: Fields, spaces: 'plus' | 'percent' = 'plus'): string {
	if (spaces === 'plus') return new URLSearchParams(fields).toString();
	return fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

export interface InboundInput {
	from?: string;
	to?: string;
	content?: string;
	keyphrase?: string;
	notifyId?: string;
	network?: string;
	timestamp?: string;
	type?: string;
	secret?: string;
}

/** An inbound relay with every documented field, signed MD5(From + Content + secret). */
export function inboundFields(input: InboundInput = {}): Fields {
	const from = input.from ?? '353871111111';
	const content = input.content ?? 'Confirm my booking';
	return [
		['SMS-Type', input.type ?? 'AuthCode'],
		['SMS-Content', content],
		['SMS-Keyphrase', input.keyphrase ?? 'CONFIRM'],
		['SMS-Network', input.network ?? '272/1'],
		['SMS-From', from],
		['SMS-To', input.to ?? '353877777777'],
		['SMS-NotifyId', input.notifyId ?? 'order-001'],
		['SMS-Verify', md5(from + content + (input.secret ?? RELAY_SECRET))],
		['SMS-TimeStamp', input.timestamp ?? '2026-04-09 16:03:11'],
		['SMS-AuthCode', 'AUTH:reply/1450707'],
		['SMS-GroupCode', 'AUTH:G353870934726/*'],
	];
}

export interface ReceiptInput {
	notifyId?: string;
	success?: string;
	/** The spelling of the success value that goes into the digest (the provider's example hashes `true`). */
	hashedSuccess?: string;
	totals?: [string, string, string];
	timestamp?: string;
	secret?: string;
	notifyIdName?: string;
}

/** A delivery receipt, signed MD5(NotifyId + Success + secret). */
export function receiptFields(input: ReceiptInput = {}): Fields {
	const notifyId = input.notifyId ?? '321354';
	const success = input.success ?? 'True';
	const [toSend, sent, failed] = input.totals ?? ['1', '1', '0'];
	return [
		['SMS-Type', 'Notification'],
		[input.notifyIdName ?? 'SMS-NotifyId', notifyId],
		['SMS-Success', success],
		['SMS-To', '353861234567'],
		['SMS-From', 'Phonovation'],
		[
			'SMS-Verify',
			md5(notifyId + (input.hashedSuccess ?? success) + (input.secret ?? RELAY_SECRET)),
		],
		['SMS-TotalToSend', toSend],
		['SMS-TotalSent', sent],
		['SMS-TotalFailed', failed],
		['SMS-TimeStamp', input.timestamp ?? '2026-04-09 16:03:16'],
	];
}

export function withField(fields: Fields, name: string, value: string): Fields {
	return fields.map(([k, v]) => [k, k === name ? value : v]);
}

export function withoutField(fields: Fields, name: string): Fields {
	return fields.filter(([k]) => k !== name);
}

/** Both versions of the trigger n8n offers; they must behave the same. */
export const TRIGGER_VERSIONS = [1, 1.1] as const;

/** The trigger registered in the real engine, with the credential stored as `cred-1`. */
export class TriggerEngine extends Engine {
	constructor(
		credential: Record<string, string> = { relaySecret: RELAY_SECRET },
		/** The type version of every trigger node posted to through this engine. */
		readonly triggerVersion: number = TRIGGER_VERSIONS[1],
	) {
		super({
			nodeTypes: { phonovationTrigger: new PhonovationTrigger() },
			credentialTypes: [new PhonovationApi()],
		});
		this.credentials.set('cred-1', { username: 'acme', password: 'pw-Secret-99', ...credential });
	}
}

export function triggerEngine(
	credential?: Record<string, string>,
	version?: number,
): TriggerEngine {
	return new TriggerEngine(credential, version);
}

/** The fixed texts refusals carry (written out here, not taken from the node). */
export const REFUSED = {
	badRequest: 'Bad request',
	unauthorized: 'Unauthorized',
	tooLarge: 'Payload too large',
} as const;

const PLAIN_TEXT = {
	'content-type': 'text/plain; charset=utf-8',
	'x-content-type-options': 'nosniff',
};

/** What a refused sender gets from the node itself: a fixed plain text, nothing started. */
export function refusal(status: 400 | 401 | 413) {
	const body = { 400: REFUSED.badRequest, 401: REFUSED.unauthorized, 413: REFUSED.tooLarge }[
		status
	];
	return { status, body, headers: PLAIN_TEXT, nodeResponded: true, executed: false, items: [] };
}

/** The node started nothing and left the answer to n8n (an acknowledged but ignored relay). */
export const IGNORED = { executed: false, items: [], nodeResponded: false, result: {} };

export function triggerNode(
	parameters: Record<string, unknown> = {},
	typeVersion: number = TRIGGER_VERSIONS[1],
): INode {
	return {
		id: 'trigger',
		name: 'Phonovation Trigger',
		type: 'phonovationTrigger',
		typeVersion,
		position: [0, 0],
		webhookId: 'c0ffee00-0000-4000-8000-000000000001',
		parameters: parameters as INode['parameters'],
		credentials: { phonovationApi: { id: 'cred-1', name: 'Phonovation' } },
	};
}

/** POSTs a form relay to a trigger with the given parameters. */
export async function postForm(
	engine: TriggerEngine,
	fields: Fields | string,
	parameters: Record<string, unknown> = {},
	request: WebhookRequest = {},
): Promise<WebhookOutcome> {
	const body = typeof fields === 'string' ? fields : encodeForm(fields);
	return await runWebhook(engine, triggerNode(parameters, engine.triggerVersion), {
		body,
		...request,
	});
}

/** POSTs a JSON processing result. */
export async function postJson(
	engine: TriggerEngine,
	value: unknown,
	parameters: Record<string, unknown> = {},
	request: WebhookRequest = {},
): Promise<WebhookOutcome> {
	return await runWebhook(engine, triggerNode(parameters, engine.triggerVersion), {
		body: typeof value === 'string' ? value : JSON.stringify(value),
		contentType: 'application/json',
		...request,
	});
}
