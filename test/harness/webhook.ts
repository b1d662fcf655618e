import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import { WebhookContext } from 'n8n-core';
import type {
	INode,
	INodeExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import type { Engine } from './engine';
import { additionalDataFor } from './engine';

/** One HTTP request as it reaches n8n's webhook endpoint. */
export interface WebhookRequest {
	/** The exact bytes sent (a string is sent as UTF-8). */
	body?: string | Buffer;
	/** The `Content-Type` header; `null` sends none. Default: form-urlencoded. */
	contentType?: string | null;
	/** Further headers, any name casing (Node lower-cases them, as here). */
	headers?: Record<string, string>;
	/** The query string as express parses it (`?token=a` → `{ token: 'a' }`). */
	query?: Record<string, string | string[]>;
	method?: string;
	/** `false` hands the node a request without `rawBody` or a reader for it, as an older host would. */
	withRawBody?: boolean;
}

/** What the sender got back, and whether a workflow execution would start. */
export interface WebhookOutcome {
	status: number;
	/** The response body as sent (a string from `send`, or the host's default JSON). */
	body: unknown;
	headers: Record<string, string>;
	/** Items of the execution n8n would start; empty when none starts. */
	items: INodeExecutionData[];
	executed: boolean;
	/** The node's return value; undefined when the host refused the request before the node. */
	result?: IWebhookResponseData;
	/** Whether the node wrote the HTTP response itself (a refusal) rather than leaving it to n8n. */
	nodeResponded: boolean;
}

/** Records what the node does with n8n's (express) response object. */
export class RecordingResponse {
	statusCode = 200;

	body: unknown = undefined;

	ended = false;

	readonly headers: Record<string, string> = {};

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	send(body?: unknown): this {
		this.body = body;
		this.ended = true;
		return this;
	}

	json(body: unknown): this {
		this.setHeader('content-type', 'application/json');
		return this.send(body);
	}

	end(body?: unknown): this {
		if (body !== undefined) this.body = body;
		this.ended = true;
		return this;
	}

	setHeader(name: string, value: string | number): this {
		this.headers[name.toLowerCase()] = String(value);
		return this;
	}

	header(name: string, value: string | number): this {
		return this.setHeader(name, value);
	}

	set(name: string, value: string | number): this {
		return this.setHeader(name, value);
	}

	getHeader(name: string): string | undefined {
		return this.headers[name.toLowerCase()];
	}

	get headersSent(): boolean {
		return this.ended;
	}
}

class HostRefusal {
	constructor(
		readonly status: number,
		readonly message: string,
	) {}
}

/**
 * n8n 2.41's webhook body handling (`parseRequestBody` in n8n/dist/webhooks/webhook-helpers.js
 * and packages/cli/src/middlewares/body-parser.ts). For a trigger of type version 1 every body
 * is read; from version 1.1 on only JSON, text, form and XML types are, the rest is left to the
 * node (`req.readRawBody()`). A read body is parsed by its media type: JSON, a form with
 * `querystring.parse` (repeated keys become arrays, at most 1000 keys) or text/plain; other
 * types stay unparsed. A parse failure is a 422 before any node runs.
 */
function n8nReadsBody(mediaType: string, nodeVersion: number): boolean {
	if (nodeVersion <= 1) return true;
	return (
		['application/json', 'text/plain', 'application/x-www-form-urlencoded'].some((t) =>
			mediaType.startsWith(t),
		) ||
		mediaType.endsWith('/xml') ||
		mediaType.endsWith('+xml')
	);
}

function parseLikeN8n(rawBody: Buffer, contentTypeHeader: string | undefined): unknown {
	if (!contentTypeHeader || rawBody.length === 0) return undefined;
	const [type, ...parameters] = contentTypeHeader.split(';');
	const mediaType = type.toLowerCase();
	let charset = 'utf-8';
	for (const parameter of parameters) {
		const [key, value] = parameter.split('=');
		if (key?.trim().toLowerCase() === 'charset' && value)
			charset = value.trim().replace(/^"|"$/g, '').toLowerCase();
	}
	try {
		const text = () => rawBody.toString(charset as BufferEncoding);
		if (mediaType === 'application/json') return jsonParse(text());
		if (mediaType === 'application/x-www-form-urlencoded') {
			return { ...parseQueryString(text(), undefined, undefined, { maxKeys: 1000 }) };
		}
		if (mediaType === 'text/plain') return text();
		return undefined;
	} catch {
		return new HostRefusal(422, 'Failed to parse request body');
	}
}

/** The request object n8n hands the node: parsed body, raw bytes if n8n read them, a reader if not. */
function n8nRequest(
	request: WebhookRequest,
	headers: Record<string, string>,
	rawBody: Buffer,
	nodeVersion: number,
) {
	const mediaType = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	const read = n8nReadsBody(mediaType, nodeVersion);
	const parsed = read ? parseLikeN8n(rawBody, headers['content-type']) : undefined;
	if (parsed instanceof HostRefusal) return parsed;
	const httpRequest: Record<string, unknown> = {
		method: request.method ?? 'POST',
		headers,
		query: request.query ?? {},
		params: {},
		body: parsed ?? {},
		header: (name: string) => headers[name.toLowerCase()],
		get: (name: string) => headers[name.toLowerCase()],
	};
	if (request.withRawBody === false) return httpRequest;
	if (read) httpRequest.rawBody = rawBody;
	else {
		httpRequest.readRawBody = async () => {
			httpRequest.rawBody = rawBody;
		};
	}
	return httpRequest;
}

function lowerCaseHeaders(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
	);
}

/**
 * Runs a trigger node's `webhook()` the way n8n's webhook endpoint does: the request is parsed
 * by a copy of n8n's body parser, handed to n8n-core's real WebhookContext (credentials come
 * from the engine's credentials helper), and the node's answer becomes the HTTP response
 * following n8n's webhook helpers (`noWebhookResponse`, the default 200 and "onReceived").
 */
export async function runWebhook(
	engine: Engine,
	node: INode,
	request: WebhookRequest = {},
): Promise<WebhookOutcome> {
	const contentType =
		request.contentType === undefined ? 'application/x-www-form-urlencoded' : request.contentType;
	const headers = lowerCaseHeaders({
		...(contentType === null ? {} : { 'content-type': contentType }),
		...(request.headers ?? {}),
	});
	const rawBody = Buffer.isBuffer(request.body)
		? request.body
		: Buffer.from(request.body ?? '', 'utf8');
	headers['content-length'] ??= String(rawBody.length);

	const httpRequest = n8nRequest(request, headers, rawBody, node.typeVersion);
	if (httpRequest instanceof HostRefusal) {
		return {
			status: httpRequest.status,
			body: { message: httpRequest.message },
			headers: {},
			items: [],
			executed: false,
			nodeResponded: false,
		};
	}
	const response = new RecordingResponse();

	const workflow = engine.workflow([node]);
	const nodeType = engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const webhookDescription = nodeType.description.webhooks?.[0] as IWebhookDescription;
	const additionalData = {
		...additionalDataFor(engine.credentials),
		httpRequest,
		httpResponse: response,
	} as unknown as IWorkflowExecuteAdditionalData;
	const webhookData = {
		httpMethod: webhookDescription.httpMethod,
		node: node.name,
		path: String(webhookDescription.path),
		webhookDescription,
		workflowId: workflow.id,
		isTest: false,
	} as unknown as IWebhookData;
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		'webhook',
		webhookData,
		[],
		null,
	);

	let result: IWebhookResponseData;
	try {
		result = await nodeType.webhook!.call(context);
	} catch (error) {
		// n8n answers an exception from webhook() with a 500.
		return {
			status: 500,
			body: { message: (error as Error).message },
			headers: {},
			items: [],
			executed: false,
			nodeResponded: response.ended,
		};
	}

	const items = result.workflowData?.[0] ?? [];
	const executed = result.workflowData !== undefined;
	if (result.noWebhookResponse) {
		const { statusCode: status, body, headers: sent, ended: nodeResponded } = response;
		return { status, body, headers: sent, items, executed, result, nodeResponded };
	}
	// As n8n 2.41 does for `responseData: 'noData'`: an accepted relay gets an empty 200.
	const body = !executed ? (result.webhookResponse ?? { message: 'Webhook call received' }) : '';
	return { status: 200, body, headers: {}, items, executed, result, nodeResponded: response.ended };
}

export interface WebhookReceiver {
	/** `http://127.0.0.1:PORT/webhook/<path>`: give this to whatever sends the relays. */
	url: string;
	/** Every request's outcome, in arrival order. */
	outcomes: WebhookOutcome[];
	stop(): Promise<void>;
}

function queryOf(search: URLSearchParams): Record<string, string | string[]> {
	const query: Record<string, string | string[]> = {};
	for (const [key, value] of search) {
		const previous = query[key];
		query[key] = previous === undefined ? value : ([] as string[]).concat(previous, value);
	}
	return query;
}

/**
 * A real HTTP endpoint on 127.0.0.1 in front of {@link runWebhook}: each POST's raw bytes,
 * headers and query go through the node's webhook() and the outcome is sent back.
 */
export async function startWebhookReceiver(engine: Engine, node: INode): Promise<WebhookReceiver> {
	const outcomes: WebhookOutcome[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const headers = Object.fromEntries(
				Object.entries(req.headers).map(([name, value]) => [
					name,
					Array.isArray(value) ? value.join(', ') : (value ?? ''),
				]),
			);
			runWebhook(engine, node, {
				body: Buffer.concat(chunks),
				contentType: null,
				headers,
				query: queryOf(url.searchParams),
				method: req.method,
			})
				.then((outcome) => {
					outcomes.push(outcome);
					const text =
						typeof outcome.body === 'string' ? outcome.body : JSON.stringify(outcome.body ?? '');
					res.writeHead(outcome.status, {
						'content-type':
							typeof outcome.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
						...outcome.headers,
					});
					res.end(text);
				})
				.catch((error: Error) => {
					res.writeHead(500);
					res.end(error.message);
				});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/webhook/${node.webhookId ?? 'trigger'}/phonovation`,
		outcomes,
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
