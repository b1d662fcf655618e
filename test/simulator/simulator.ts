import {
	createServer,
	type IncomingMessage,
	type Server,
	type ServerResponse,
	STATUS_CODES,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

import type { AcceptedRecipient } from './campaign';
import { SimulatorClock } from './clock';
import { resolveConfig, type SimulatorConfig } from './config';
import { handleControl } from './control';
import { type ErrorsShape, type Fault, FaultQueue, type PendingFault, routeKey } from './faults';
import {
	BodyTooLarge,
	type Exchange,
	json,
	readBody,
	type Reply,
	SimulatorError,
	text,
} from './http';
import { TokenIssuer } from './jwt';
import { legacyOutbound } from './legacy';
import { type OutboundLink, OutboundLinks, replyAddress } from './links';
import { isIrish } from './msisdn';
import {
	CHAT_COMPLETIONS,
	CHAT_MODEL_ROUTES,
	type ChatRequestMessages,
	chatMessagesOf,
} from './chatModel';
import { PROVIDER_ROUTES, type ProviderState } from './provider';
import {
	DEFAULT_REPLY_FROM,
	deliveryReceipt,
	inboundRelay,
	type InboundOptions,
	optOutRelay,
	type OptOutOptions,
	processingResult,
	type ProcessingResultOptions,
	type ReceiptOptions,
	type RelayContext,
	type RelayPayload,
} from './relays';

/** The route `campaignLimit` counts. */
const CAMPAIGN_ROUTE = routeKey('/api/v2/Campaign');

export interface RecordedCampaign {
	/** 1, 2, 3 … in arrival order. */
	id: number;
	/** ISO, simulator clock. */
	receivedAt: string;
	/** The JSON body exactly as received (parsed). */
	body: any;
	sendAt: string | null;
	status: 'sent' | 'scheduled' | 'delivered';
	/** Valid recipients, msisdn in international form (`08…` → `3538…`). */
	accepted: Array<{ msisdn: string; notifyId?: string }>;
	/** What the response listed in `errors`. */
	errors: string[];
}

/**
 * One campaign request as it reached the provider, whatever became of it: when it arrived (before
 * any fault), its body, whether it was processed, and what was answered when. The request a
 * connection that never opened (DNS, TLS, refused) never arrives, so it is not here.
 */
export interface CampaignExchange {
	/** The request's sequence number, as in `timeline`. */
	seq: number;
	/** Epoch ms, simulator clock: when the request arrived, before any fault held it. */
	arrivedAt: number;
	/** The JSON body as received (parsed); undefined when it was not JSON. */
	body: any;
	/** The campaign it recorded (`campaigns[].id`), when it was processed. */
	campaignId?: number;
	/** The answer's status; 0 when a `reset` fault dropped the connection; undefined while open. */
	status?: number;
	/** Epoch ms, simulator clock: when it was answered (or dropped). */
	answeredAt?: number;
	/** The answer's body and media type, exactly as sent. */
	answer?: string;
	contentType?: string;
	/** The fault it met, if any. */
	fault?: Fault['kind'];
}

export interface RecordedLegacySend {
	id: number;
	receivedAt: string;
	/** Query and form parameters as received, the password masked. */
	form: Record<string, string>;
	/** `sent`, or `scheduled` when a non-zero deliverytime was given. */
	status: string;
}

export interface RecordedRequest {
	method: string;
	/** Without the query. */
	path: string;
	/** 0 when a `reset` fault dropped the connection. */
	status: number;
}

export interface RelayResult {
	/** The relay URL's HTTP status. */
	status: number;
	/** The relay URL's response body. */
	body: string;
	sent: { url: string; contentType: string; body: string; fields: Record<string, string> };
}

export interface InboundResult extends RelayResult {
	/** The SMS-NotifyId the reply carried (explicit or linked); null when it was empty. */
	notifyId: string | null;
	/**
	 * The message the reply was linked to: the last one out to its SMS-From. Null when a notifyId
	 * was given, linking was off, or nothing went out to that number.
	 */
	linkedTo: OutboundLink | null;
}

export interface DeliveryResult {
	delivered: number[];
	relays: RelayResult[];
}

export interface Simulator {
	/** `http://127.0.0.1:PORT` (`https://` with `tls`): token, campaign, legacy and control routes all live here. */
	url: string;
	config: SimulatorConfig;
	/** Provider requests (not /_sim/) that came on a new connection, and on one already used. */
	connections: { opened: number; reused: number };
	campaigns: RecordedCampaign[];
	/** Every campaign request that reached the provider, in arrival order, with its answer. */
	campaignExchanges: CampaignExchange[];
	legacySends: RecordedLegacySend[];
	/** Every provider request answered, in order (control routes under /_sim/ excluded). */
	requests: RecordedRequest[];
	/** The messages of each request to the chat model, in order (what the agent sent: its memory too). */
	chatRequests: ChatRequestMessages[];
	/** Requests received with that method and path (both compared case-insensitively). */
	count(method: string, path: string): number;
	/**
	 * When each provider request arrived and was answered, in order: `+` an arrival, `-` an answer
	 * (or a dropped connection), with the request's sequence number, status and path. It shows how
	 * many requests overlapped without measuring time.
	 */
	timeline: TimelineEvent[];
	clock: { now(): number; advance(seconds: number): void; freeze(): void; unfreeze(): void };
	injectFault(path: string, fault: Fault, times?: number): void;
	pendingFaults(): PendingFault[];
	/** Drops every fault not yet used up. */
	clearFaults(): void;
	reset(): void;
	/**
	 * A reply from a handset. Without an explicit `notifyId` it is linked like the provider links
	 * replies: the notifyId of the last message out to `from` (a campaign recipient sent at once or
	 * delivered, or a legacy send), SMS-To that message's numeric sender; `linked: false` or config
	 * `linkReplies: false` turns that off.
	 */
	sendInbound(opts?: InboundOptions): Promise<InboundResult>;
	sendOptOut(opts?: OptOutOptions): Promise<RelayResult>;
	sendReceipt(opts?: ReceiptOptions): Promise<RelayResult>;
	sendProcessingResult(opts?: ProcessingResultOptions): Promise<RelayResult>;
	deliverScheduled(campaignId?: number): Promise<DeliveryResult>;
	stop(): Promise<void>;
}

export interface TimelineEvent {
	event: '+' | '-';
	seq: number;
	path: string;
	status?: number;
}

/** The most requests to `path` in flight at once in a timeline (from its `from`-th event on). */
export function peakOverlap(timeline: TimelineEvent[], path: string, from = 0): number {
	let open = 0;
	let peak = 0;
	for (const e of timeline.slice(from)) {
		if (e.path.toLowerCase() !== path.toLowerCase()) continue;
		open = Math.max(0, open + (e.event === '+' ? 1 : -1));
		peak = Math.max(peak, open);
	}
	return peak;
}

export interface StartOptions {
	/** One short line per request and relay, never with secrets (the CLI prints them to stderr). */
	log?: (line: string) => void;
}

class PhonovationSimulator implements Simulator {
	url = '';

	readonly campaigns: RecordedCampaign[] = [];

	readonly campaignExchanges: CampaignExchange[] = [];

	readonly legacySends: RecordedLegacySend[] = [];

	readonly requests: RecordedRequest[] = [];
	readonly chatRequests: ChatRequestMessages[] = [];
	readonly timeline: TimelineEvent[] = [];
	private sequence = 0;

	private readonly simClock = new SimulatorClock();

	readonly clock = {
		now: () => this.simClock.now(),
		advance: (seconds: number) => this.simClock.advance(seconds),
		freeze: () => this.simClock.freeze(),
		unfreeze: () => this.simClock.unfreeze(),
	};

	private readonly faults = new FaultQueue();

	private readonly received: Array<{ method: string; route: string }> = [];

	/** Campaign requests being handled, for `campaignLimit`. */
	private campaignsInFlight = 0;

	private readonly timers = new Set<NodeJS.Timeout>();

	private readonly server: Server;

	private tokens = new TokenIssuer('http://127.0.0.1');

	/** The last message out to each number, for linking replies. */
	private readonly links = new OutboundLinks();

	constructor(
		readonly config: SimulatorConfig,
		private readonly log: (line: string) => void = () => {},
	) {
		const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
		this.server = config.tls ? createTlsServer(config.tls, handler) : createServer(handler);
	}

	/** Provider requests (not /_sim/) by whether their connection was new or reused. */
	readonly connections = { opened: 0, reused: 0 };

	private readonly seenSockets = new WeakSet<object>();

	async listen(): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.config.port, '127.0.0.1', () => resolve());
		});
		const scheme = this.config.tls ? 'https' : 'http';
		this.url = `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		this.tokens = new TokenIssuer(this.url);
	}

	count(method: string, path: string): number {
		const route = routeKey(path);
		return this.received.filter((r) => r.method === method.toUpperCase() && r.route === route)
			.length;
	}

	injectFault(path: string, fault: Fault, times = 1): void {
		this.faults.add(path, fault, times);
	}

	pendingFaults(): PendingFault[] {
		return this.faults.list();
	}

	clearFaults(): void {
		this.faults.clear();
	}

	clockState() {
		const now = this.simClock.now();
		return { now, iso: new Date(now).toISOString(), frozen: this.simClock.frozen };
	}

	private countConnection(socket: object): void {
		if (this.seenSockets.has(socket)) this.connections.reused++;
		else {
			this.seenSockets.add(socket);
			this.connections.opened++;
		}
	}

	reset(): void {
		this.connections.opened = 0;
		this.connections.reused = 0;
		this.campaigns.length = 0;
		this.chatRequests.length = 0;
		this.campaignExchanges.length = 0;
		this.legacySends.length = 0;
		this.requests.length = 0;
		this.timeline.length = 0;
		this.received.length = 0;
		this.faults.clear();
		this.simClock.reset();
		this.links.clear();
	}

	async sendInbound(opts: InboundOptions = {}): Promise<InboundResult> {
		const link =
			opts.notifyId === undefined && opts.linked !== false && this.config.linkReplies
				? this.links.find(opts.from ?? DEFAULT_REPLY_FROM)
				: undefined;
		const notifyId = opts.notifyId ?? link?.notifyId ?? undefined;
		// Unlinked, a person texts the account's first longcode, as people do (else the default number).
		const longcode = this.config.senders.find((sender) => sender.type === 2)?.name;
		const to = opts.to ?? (link ? replyAddress(link.sender) : undefined) ?? longcode;
		const result = await this.post(
			'inbound',
			inboundRelay({ ...opts, notifyId, to }, this.relayContext()),
			opts.url,
		);
		return { ...result, notifyId: notifyId || null, linkedTo: link ? { ...link } : null };
	}

	sendOptOut(opts: OptOutOptions = {}): Promise<RelayResult> {
		return this.post('opt-out', optOutRelay(opts, this.relayContext()), opts.url);
	}

	sendReceipt(opts: ReceiptOptions = {}): Promise<RelayResult> {
		return this.post('receipt', deliveryReceipt(opts, this.relayContext()), opts.url);
	}

	sendProcessingResult(opts: ProcessingResultOptions = {}): Promise<RelayResult> {
		let url = opts.url;
		if (opts.token !== undefined) {
			const target = new URL(this.relayUrl(url));
			target.searchParams.set('token', opts.token);
			url = target.toString();
		}
		return this.post('processing result', processingResult(opts, this.relayContext()), url);
	}

	/**
	 * Delivers scheduled campaigns now (or the one given, even an immediate one): marks them
	 * delivered and, when a relay URL is set, posts per accepted recipient one MESSAGE_SUCCESS
	 * processing result and one delivery receipt. Type-1 senders fail on Irish numbers.
	 */
	async deliverScheduled(campaignId?: number): Promise<DeliveryResult> {
		const targets =
			campaignId === undefined
				? this.campaigns.filter((c) => c.status === 'scheduled')
				: [this.campaignToDeliver(campaignId)];
		const relays: RelayResult[] = [];
		for (const campaign of targets) {
			// A scheduled campaign reaches the handsets now; one sent at once already counted.
			if (campaign.status === 'scheduled') this.recordLinks(campaign);
			campaign.status = 'delivered';
			if (!this.config.relayUrl) continue;
			const from = String(campaign.body.from);
			const international = this.config.senders.find((s) => s.name === from)?.type === 1;
			for (const recipient of campaign.accepted) {
				const notifyId = recipient.notifyId ?? '';
				relays.push(await this.sendProcessingResult({ status: 'MESSAGE_SUCCESS', notifyId }));
				relays.push(
					await this.sendReceipt({
						notifyId,
						to: recipient.msisdn,
						from,
						success: !(international && isIrish(recipient.msisdn)),
					}),
				);
			}
		}
		return { delivered: targets.map((c) => c.id), relays };
	}

	async stop(): Promise<void> {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
		this.server.closeAllConnections();
		await closed;
	}

	private recordLinks(campaign: RecordedCampaign): void {
		const sender = String(campaign.body.from);
		for (const { msisdn, notifyId } of campaign.accepted) {
			this.links.record({
				outbound: 'campaign',
				id: campaign.id,
				msisdn,
				sender,
				notifyId: notifyId || null,
			});
		}
	}

	private campaignToDeliver(id: number): RecordedCampaign {
		const campaign = this.campaigns.find((c) => c.id === id);
		if (!campaign) throw new SimulatorError(404, `No campaign ${id}`);
		if (campaign.status === 'delivered')
			throw new SimulatorError(409, `Campaign ${id} was already delivered`);
		return campaign;
	}

	private relayContext(): RelayContext {
		return {
			secret: this.config.relaySecret,
			nowMs: this.simClock.now(),
			defaultSender: this.config.senders[0]?.name ?? 'Phonovation',
		};
	}

	private relayUrl(url?: string): string {
		const target = url ?? this.config.relayUrl;
		if (!target) {
			throw new SimulatorError(
				409,
				'No relay URL: start the simulator with relayUrl (--relay-url) or pass url',
			);
		}
		return target;
	}

	private async post(kind: string, payload: RelayPayload, url?: string): Promise<RelayResult> {
		const target = this.relayUrl(url);
		let response;
		try {
			response = await request(target, {
				method: 'POST',
				headers: { 'content-type': payload.contentType },
				body: payload.body,
			});
		} catch (error) {
			throw new SimulatorError(
				502,
				`Relay URL ${withoutQuery(target)} unreachable: ${(error as Error).message}`,
			);
		}
		const body = await response.body.text();
		this.log(`relay ${kind} → ${withoutQuery(target)} ${response.statusCode}`);
		return { status: response.statusCode, body, sent: { url: target, ...payload } };
	}

	private provider(): ProviderState {
		return {
			config: this.config,
			tokens: this.tokens,
			now: () => this.simClock.now(),
			recordCampaign: ({ body, sendAt, accepted, errors }) => {
				const campaign: RecordedCampaign = {
					id: this.campaigns.length + 1,
					receivedAt: new Date(this.simClock.now()).toISOString(),
					body,
					sendAt,
					status: sendAt ? 'scheduled' : 'sent',
					accepted: accepted.map((r: AcceptedRecipient) => ({ ...r })),
					errors: [...errors],
				};
				this.campaigns.push(campaign);
				if (campaign.status === 'sent') this.recordLinks(campaign);
			},
			recordLegacySend: (form, status) => {
				const id = this.legacySends.push({
					id: this.legacySends.length + 1,
					receivedAt: new Date(this.simClock.now()).toISOString(),
					form,
					status,
				});
				// A legacy send held by deliverytime never goes out in the simulator, so it links nothing.
				if (status !== 'sent') return;
				const { to, from, notifyId } = legacyOutbound(form);
				for (const msisdn of to)
					this.links.record({ outbound: 'legacy', id, msisdn, sender: from, notifyId });
			},
		};
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const started = Date.now();
		const [path, search = ''] = (req.url ?? '/').split(/\?(.*)/s);
		const method = (req.method ?? 'GET').toUpperCase();
		const isControl = routeKey(path).startsWith('/_sim/');
		const seq = ++this.sequence;
		const arrivedAt = this.simClock.now();
		if (!isControl) this.timeline.push({ event: '+', seq, path });
		if (!isControl) this.countConnection(req.socket);
		let campaignExchange: CampaignExchange | undefined;
		const finish = (reply: Reply) => {
			if (!isControl) this.requests.push({ method, path, status: reply.status });
			if (!isControl) this.timeline.push({ event: '-', seq, path, status: reply.status });
			if (campaignExchange) {
				Object.assign(campaignExchange, {
					status: reply.status,
					answeredAt: this.simClock.now(),
					answer: reply.body,
				});
				campaignExchange.contentType = reply.headers['Content-Type'];
			}
			this.log(`${method} ${path} ${reply.status} ${Date.now() - started}ms`);
			if (!res.destroyed) {
				res.writeHead(reply.status, reply.headers);
				res.end(reply.body);
			}
		};
		let body: Buffer;
		try {
			body = await readBody(req);
		} catch (error) {
			if (error instanceof BodyTooLarge) finish(text(413, 'Payload Too Large'));
			else res.destroy();
			return;
		}
		const exchange: Exchange = {
			method,
			path,
			route: routeKey(path),
			query: new URLSearchParams(search),
			headers: req.headers,
			body,
		};
		try {
			if (isControl) return finish(await handleControl(exchange, this));
			this.received.push({ method, route: exchange.route });
			if (method === 'POST' && exchange.route === CAMPAIGN_ROUTE) {
				this.campaignExchanges.push(
					(campaignExchange = { seq, arrivedAt, body: parsedOrUndefined(body) }),
				);
				const limit = this.config.campaignLimit;
				if (limit && this.campaignsInFlight >= limit.max)
					return finish(faultReply({ kind: 'status', status: 429, retryAfter: limit.retryAfter }));
				this.campaignsInFlight++;
				res.once('close', () => this.campaignsInFlight--);
			}
			const fault = this.faults.take(exchange.route);
			if (campaignExchange && fault) campaignExchange.fault = fault.kind;
			if (fault?.kind === 'reset') {
				this.requests.push({ method, path, status: 0 });
				this.timeline.push({ event: '-', seq, path, status: 0 });
				if (campaignExchange)
					Object.assign(campaignExchange, { status: 0, answeredAt: this.simClock.now() });
				this.log(`${method} ${path} reset`);
				req.socket.destroy();
				return;
			}
			if (fault?.kind === 'delay') {
				exchange.authenticatedAt = this.simClock.now();
				await this.sleep(fault.ms);
			}
			if (fault?.kind === 'advanceClock') this.simClock.advance(fault.seconds);
			if (fault?.kind === 'status') return finish(faultReply(fault));
			const processedBefore = this.campaigns.length;
			const reply = this.route(exchange);
			if (campaignExchange && this.campaigns.length > processedBefore)
				campaignExchange.campaignId = this.campaigns[this.campaigns.length - 1].id;
			if (fault?.kind === 'answer')
				return finish(withContentType(text(fault.status, fault.body, {}), fault.contentType));
			finish(fault?.kind === 'errorsAs' ? withErrorsAs(reply, fault.shape) : reply);
		} catch (error) {
			if (error instanceof SimulatorError)
				return finish(json(error.status, { error: error.message }));
			finish(json(500, { error: 'Simulator error', detail: (error as Error).message }));
		}
	}

	private route(exchange: Exchange): Reply {
		const methods = PROVIDER_ROUTES[exchange.route] ?? CHAT_MODEL_ROUTES[exchange.route];
		if (!methods) {
			return json(404, { success: false, message: 'Not Found', errors: ['404 Not Found'] });
		}
		if (exchange.route === CHAT_COMPLETIONS && exchange.method === 'POST')
			this.chatRequests.push(chatMessagesOf(exchange.body));
		const handler = methods[exchange.method];
		if (!handler) {
			return json(
				405,
				{ success: false, message: 'Method Not Allowed', errors: ['405 Method Not Allowed'] },
				{ Allow: Object.keys(methods).join(', ') },
			);
		}
		return handler(exchange, this.provider());
	}

	private sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}
}

/** A `status` fault: the given status, Retry-After when set, a campaign-shaped JSON body by default. */
function faultReply(fault: Extract<Fault, { kind: 'status' }>): Reply {
	const headers: Record<string, string> =
		fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {};
	if (typeof fault.body === 'string')
		return withContentType(text(fault.status, fault.body, headers), fault.contentType);
	const reason = STATUS_CODES[fault.status] ?? 'Error';
	const body = fault.body ?? {
		success: false,
		message: reason,
		errors: [`${fault.status} ${reason}`],
	};
	return json(fault.status, body, headers);
}

/** A reply sent as another media type (text/plain stays when none is given). */
function withContentType(reply: Reply, contentType: string | undefined): Reply {
	return contentType
		? { ...reply, headers: { ...reply.headers, 'Content-Type': contentType } }
		: reply;
}

function parsedOrUndefined(body: Buffer): unknown {
	try {
		return JSON.parse(body.toString('utf8'));
	} catch {
		return undefined;
	}
}

/** `Invalid MSISDN: 35312345678` → `{ msisdn: '35312345678', error: 'Invalid MSISDN' }`. */
function errorObject(message: string): { msisdn: string | null; error: string } {
	const match = /^(.*?):\s*(\d+)$/.exec(message);
	return match ? { msisdn: match[2], error: match[1] } : { msisdn: null, error: message };
}

/**
 * A JSON campaign answer with its `errors` in a shape the provider does not show
 * (docs/provider-api.md#campaign-response; errorsAs fault).
 */
function withErrorsAs(reply: Reply, shape: ErrorsShape): Reply {
	let answer: { errors?: unknown } & Record<string, unknown>;
	try {
		answer = JSON.parse(reply.body);
	} catch {
		return reply;
	}
	// Only an accepted answer: a refusal keeps the provider's own words.
	if (
		!answer ||
		typeof answer !== 'object' ||
		answer.success !== true ||
		!Array.isArray(answer.errors)
	)
		return reply;
	const errors = answer.errors as string[];
	if (shape === 'objects') answer.errors = errors.map(errorObject);
	else if (shape === 'null') answer.errors = errors.length === 0 ? null : errors;
	else
		answer.errors = [
			...errors.map((e, i) => (i % 2 === 0 ? errorObject(e) : e)),
			null,
			{ code: 17, error: 'Throttled, some messages delayed' },
		];
	return { ...reply, body: JSON.stringify(answer) };
}

function withoutQuery(url: string): string {
	return url.split('?')[0];
}

/** Starts a simulator on 127.0.0.1 (port 0 = a free one) and resolves once it listens. */
export async function startSimulator(
	config: Partial<SimulatorConfig> = {},
	options: StartOptions = {},
): Promise<Simulator> {
	const simulator = new PhonovationSimulator(resolveConfig(config), options.log);
	await simulator.listen();
	return simulator;
}

export type { PhonovationSimulator };
