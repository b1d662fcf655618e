import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorStrings, providerError } from '../../../transport/failures';
import { apiExchange, type Exchange } from '../../../transport/request';
import {
	confirmsAcceptance,
	isOwnRefusal,
	mayHaveBeenProcessed,
	provesRefusal,
} from '../../../transport/processed';
import type { QuietHours } from '../../../domain/quietHours';
import { sendAtWhenPosted } from '../../../domain/compliance';
import { Ledger, type Recorded } from './ledger';
import type { Pacer, Slot } from './pacer';
import type { CampaignPlan, CampaignSettings } from './plan';
import type { CampaignRecipients } from './recipients';
import { batchLabel, ByteWriter, CAMPAIGN_PATH, requestBody } from './requestBody';
import { TOO_MANY_REQUESTS, waitAfterTooMany } from './tooManyRequests';

/** The provider's CampaignResponse (docs/provider-api.md#campaign-response). */
export interface CampaignResponse {
	success?: boolean;
	message?: string | null;
	errors?: string[] | null;
}

/**
 * What became of one batch. `unconfirmed`: the request may have reached the provider but no
 * readable answer says so (a 2xx without a CampaignResponse, a timeout, a dropped connection).
 * `replayed`: recorded by an earlier attempt of this execution and not posted again.
 */
export type BatchOutcome =
	| ({ state: 'accepted'; message: string | null; errors: string[] } & Replay)
	/** `failure`: the campaign is an error on every attempt; the first time, later batches stop. */
	| ({ state: 'unconfirmed'; reason: string; failure?: Error } & Replay)
	| { state: 'failed'; failure: Error }
	| { state: 'not attempted' }
	| { state: 'dry run' };

/**
 * `replayed`: recorded by an earlier attempt of this execution and not posted again; `changed`:
 * this attempt would have posted another body (an expression gave a new value), which was not sent.
 */
interface Replay {
	replayed?: boolean;
	changed?: boolean;
}

export interface Posting {
	/** One outcome per batch of the plan, in order. */
	batches: BatchOutcome[];
	/**
	 * The failure that makes the campaign an error, and the batch it happened on (none: a rule
	 * stopped the campaign before any batch). `replayed`: only an earlier attempt's unconfirmed
	 * batch, which stops nothing else on this attempt.
	 */
	failure?: { error: Error; batch?: number; replayed?: boolean };
	/**
	 * Recipients (entries of the plan's columns) an earlier attempt of this execution already
	 * posted, with what became of them: their own record wins over their batch's outcome (a retry
	 * may group them differently).
	 */
	earlier?: Map<number, BatchOutcome>;
	/** Recipients (entries) an earlier attempt texted for another item that listed the same number. */
	textedForOthers?: Set<number>;
	/** Campaign requests posted (429s that were waited out and repeated included). */
	requests: number;
	/** Requests repeated after the provider answered 429. */
	retriedAfter429: number;
	/** Requests of a Send posted inside Quiet Hours that began while it went out, and the sendAt they got. */
	movedIntoQuietHours?: { window: QuietHours; requests: number; sendAt: string };
	/** A dry run's requests, exactly as they would have been posted. */
	dryRunRequests?: IDataObject[];
}

export interface PostingContext {
	ctx: IExecuteFunctions;
	ledger: Ledger;
	pacer: Pacer;
	/** The campaign endpoint, resolved once per run. */
	campaignUrl: string;
	/** Set when a failure must stop the run: no new request starts after it. */
	stop: { requested: boolean };
}

/** What would be posted, at the endpoint the run already resolved. */
function rehearse(url: string, plan: CampaignPlan): Posting {
	const columns = plan.recipients;
	return {
		batches: Array.from({ length: plan.batchCount }, () => ({ state: 'dry run' })),
		requests: 0,
		retriedAfter429: 0,
		dryRunRequests: Array.from({ length: plan.batchCount }, (_, index) => ({
			method: 'POST',
			url,
			body: JSON.parse(
				requestBody(plan.settings, { columns, entries: plan.batch(index) }).toString('utf8'),
			) as IDataObject,
		})),
	};
}

const UNCONFIRMED_ADVICE = "check the provider's report before sending these numbers again";

const messageOf = (message: unknown): string | null =>
	message === null || message === undefined || message === '' ? null : String(message);

/**
 * Reads the provider's 2xx answer to a posted batch: only `success: true` confirms it. Anything
 * else, `success: false` included, may come after processing, so it is unconfirmed.
 */
function answerOutcome(
	ctx: IExecuteFunctions,
	answer: unknown,
	where: string,
	itemIndex: number,
): BatchOutcome {
	if (confirmsAcceptance(answer)) {
		const response = answer as CampaignResponse;
		return {
			state: 'accepted',
			message: messageOf(response.message),
			errors: errorStrings(response.errors),
		};
	}
	const said = isOwnRefusal(answer)
		? [
				messageOf((answer as CampaignResponse).message),
				...errorStrings((answer as CampaignResponse).errors),
			]
				.filter(Boolean)
				.join('; ')
		: '';
	const what = said
		? `the provider answered success: false with HTTP 2xx (${said.slice(0, 500)})`
		: 'the provider answered without a readable confirmation';
	// An error from the first attempt on, as after a retry: the text may have gone.
	const reason = `${what}${where}; ${UNCONFIRMED_ADVICE}`;
	return {
		state: 'unconfirmed',
		reason,
		failure: new NodeOperationError(
			ctx.getNode(),
			`Phonovation did not confirm the campaign${where}: ${reason}`,
			{ itemIndex },
		),
	};
}

/**
 * The record of a batch written before its request goes, as unconfirmed, and replaced by what the
 * answer says; a proven refusal removes it. n8n saves the node context when an execution is
 * stopped or times out, without waiting for the node.
 */
class WriteAhead {
	private key?: string;

	constructor(
		private readonly ledger: Ledger,
		private readonly who: () => string,
	) {}

	ahead(fingerprint: string): void {
		const reason =
			'posted, but no answer was recorded (the execution was stopped, timed out or ended while waiting for it)';
		this.key = this.ledger.record(
			{
				state: 'unconfirmed',
				reason: `${reason}; ${UNCONFIRMED_ADVICE}`,
				body: fingerprint,
				who: this.who(),
			},
			this.key,
		);
	}

	/** The provider answered: its record, or none for a proven refusal. */
	settle(record: (Recorded & { body: string; who: string }) | undefined): void {
		if (record) this.ledger.record(record, this.key);
		else if (this.key) this.ledger.forget(this.key);
		this.key = undefined;
	}

	refused(): void {
		this.settle(undefined);
	}
}

/** A batch as posted: its outcome, the fingerprint of the body that went (if any) and the settings it went with. */
interface Posted {
	outcome: BatchOutcome;
	posted?: string;
	settings?: CampaignSettings;
}

/** The campaign being posted: where it goes, what it is and what became of it so far. */
interface CampaignPost {
	run: PostingContext;
	plan: CampaignPlan;
	posting: Posting;
}

/** A request with its slot taken: the body that goes, and its record written ahead. */
interface SlottedRequest {
	slot: Slot;
	body: Buffer;
	fingerprint: string;
	written: WriteAhead;
}

/**
 * Whether a batch whose slot came may go now, with its settings as the clock leaves them: not
 * when another campaign failed or the run was stopped while it waited, nor past a time rule.
 */
function readyToPost(
	run: PostingContext,
	plan: CampaignPlan,
	index: number,
): { ok: true; settings: CampaignSettings } | { ok: false; outcome: BatchOutcome } {
	if (run.stop.requested || run.ctx.getExecutionCancelSignal?.()?.aborted)
		return { ok: false, outcome: { state: 'not attempted' } };
	const timing = settingsAt(run, plan, index);
	return timing.ok ? timing : { ok: false, outcome: { state: 'failed', failure: timing.error } };
}

/** One request in its slot; the slot goes back answered unless refused with 429 or unanswered. */
async function exchangeInSlot(
	run: PostingContext,
	plan: CampaignPlan,
	request: SlottedRequest,
): Promise<Exchange<unknown>> {
	let exchange: Exchange<unknown> | undefined;
	try {
		// Written ahead: if the execution is stopped, times out or crashes before the answer, a
		// Retry finds this request unconfirmed instead of posting it again.
		request.written.ahead(request.fingerprint);
		exchange = await apiExchange<unknown>(run.ctx, {
			method: 'POST',
			path: CAMPAIGN_PATH,
			url: run.campaignUrl,
			body: request.body,
			timeoutMs: plan.settings.timeoutMs,
			itemIndex: plan.items[0].itemIndex,
			abortSignal: run.ctx.getExecutionCancelSignal?.(),
		});
	} finally {
		run.pacer.release(
			request.slot,
			exchange?.ok === true || (exchange !== undefined && exchange.failure.status !== 429),
		);
	}
	return exchange;
}

/** A request that failed: unconfirmed when the provider may have processed it, else failed. */
function failedOutcome(
	run: PostingContext,
	plan: CampaignPlan,
	index: number,
	failure: Extract<Exchange<unknown>, { ok: false }>['failure'],
): BatchOutcome {
	const where = batchLabel(index, plan.batchCount);
	const error = providerError(run.ctx, `the campaign${where}`, failure, plan.items[0].itemIndex);
	if (!mayHaveBeenProcessed(failure)) return { state: 'failed', failure: error };
	const reason = `${error.message}; the request may have reached the provider: ${UNCONFIRMED_ADVICE}`;
	return { state: 'unconfirmed', reason, failure: error };
}

/**
 * Posts one batch, waiting out and repeating 429s (the provider processed nothing). The time rules
 * are judged, and the body built, only once the request has its slot, and again after each 429
 * pause: a request that waited is never posted on what an earlier moment allowed.
 */
async function postBatch(
	{ run, plan, posting }: CampaignPost,
	index: number,
	bodyFor: (settings: CampaignSettings) => { body: Buffer; fingerprint: string },
	written: WriteAhead,
): Promise<Posted> {
	for (let attempt = 0; ; attempt++) {
		const slot = await run.pacer.acquire(attempt > 0);
		const ready = readyToPost(run, plan, index);
		if (!ready.ok) {
			run.pacer.release(slot, false);
			return { outcome: ready.outcome };
		}
		const { settings } = ready;
		const { body, fingerprint } = bodyFor(settings);
		posting.requests++;
		const exchange = await exchangeInSlot(run, plan, { slot, body, fingerprint, written });
		if (exchange.ok) {
			const where = batchLabel(index, plan.batchCount);
			const outcome = answerOutcome(run.ctx, exchange.body, where, plan.items[0].itemIndex);
			return { outcome, posted: fingerprint, settings };
		}
		const { failure } = exchange;
		const wait =
			failure.status === 429 && provesRefusal(429, failure.body)
				? waitAfterTooMany(failure.retryAfter, new Date())
				: null;
		if (wait !== null && attempt < TOO_MANY_REQUESTS.maxRetries) {
			// Refused before processing: safe to repeat once everyone has waited.
			written.refused();
			posting.retriedAfter429++;
			run.pacer.tooMany(wait);
			continue;
		}
		return { outcome: failedOutcome(run, plan, index, failure), posted: fingerprint, settings };
	}
}

function recorded(
	outcome: BatchOutcome,
	body: string,
	who: () => string,
): (Recorded & { body: string; who: string }) | undefined {
	if (outcome.state === 'accepted')
		return {
			state: 'accepted',
			message: outcome.message,
			errors: outcome.errors,
			body,
			who: who(),
		};
	if (outcome.state === 'unconfirmed')
		return { state: 'unconfirmed', reason: outcome.reason, body, who: who() };
	return undefined;
}

/**
 * A batch an earlier attempt posted, as this attempt reports it. An unconfirmed one stays an
 * error on every attempt, so a retry never turns "may not have gone" into success.
 */
function replayed(
	ctx: IExecuteFunctions,
	plan: CampaignPlan,
	earlier: Recorded,
	fingerprint: string,
): BatchOutcome {
	const changed = earlier.body !== undefined && earlier.body !== fingerprint;
	if (earlier.state === 'accepted')
		return {
			state: 'accepted',
			message: earlier.message,
			errors: earlier.errors,
			replayed: true,
			changed,
		};
	const failure = new NodeOperationError(
		ctx.getNode(),
		`An earlier attempt of this execution could not confirm the campaign: ${earlier.reason}`,
		{
			itemIndex: plan.items[0].itemIndex,
			description:
				"It is not posted again, so it cannot be sent twice; it stays an error until you have checked the provider's report.",
		},
	);
	return { state: 'unconfirmed', reason: earlier.reason, failure, replayed: true, changed };
}

/**
 * Items that also listed a number of this campaign, skipped as duplicates: they are recorded with
 * it, so a retry that groups items otherwise (and makes one of them the first) still knows it was sent.
 */
function duplicatesOf(columns: CampaignRecipients): Map<string, number[]> | undefined {
	let duplicates: Map<string, number[]> | undefined;
	for (const [entry, skip] of columns.skips) {
		const msisdn = columns.msisdn(entry);
		if (skip.kind !== 'duplicate' || !msisdn) continue;
		duplicates ??= new Map();
		const items = duplicates.get(msisdn);
		if (items) items.push(columns.itemIndex(entry));
		else duplicates.set(msisdn, [columns.itemIndex(entry)]);
	}
	return duplicates;
}

/**
 * Who a posted batch texted, for the record: each recipient as its item (`Ledger.recipientKey`),
 * then as every item that listed it too (`Ledger.duplicateKey`), one per line. Written as bytes
 * and read as one Latin-1 string: no string per recipient, and a long one is kept outside V8's heap.
 */
function whoOf(
	columns: CampaignRecipients,
	entries: Int32Array,
	duplicates: Map<string, number[]> | undefined,
): string {
	const out = new ByteWriter(entries.length * 16);
	for (let i = 0; i < entries.length; i++) {
		const entry = entries[i];
		if (i > 0) out.ascii('\n');
		// Ledger.recipientKey, written without a string per recipient.
		out.decimal(columns.itemIndex(entry));
		out.ascii(':');
		out.ascii(columns.msisdn(entry)!);
	}
	if (duplicates) {
		for (let i = 0; i < entries.length; i++) {
			const msisdn = columns.msisdn(entries[i])!;
			const others = duplicates.get(msisdn);
			if (!others) continue;
			for (let o = 0; o < others.length; o++) {
				out.ascii('\n');
				out.ascii(Ledger.duplicateKey(others[o], msisdn));
			}
		}
	}
	return out.done().toString('latin1');
}

/**
 * Splits a batch into the recipients an earlier attempt already posted (with their record) and
 * those still to post. Only a retry looks anything up.
 */
function earlierOf(
	run: PostingContext,
	columns: CampaignRecipients,
	batch: Int32Array,
	fingerprint: string,
) {
	const known = new Map<number, Recorded>();
	if (!run.ledger.retrying) return { known, fresh: batch };
	const whole = run.ledger.byBody(fingerprint);
	const fresh: number[] = [];
	const textedForOthers = new Set<number>();
	for (let i = 0; i < batch.length; i++) {
		const entry = batch[i];
		const who = Ledger.recipientKey(columns.itemIndex(entry), columns.msisdn(entry)!);
		const record = whole ?? run.ledger.recipient(who);
		if (record) known.set(entry, record);
		// Texted in an earlier attempt for another item that listed it too: not again.
		else if (run.ledger.recipient(`d${who}`)) textedForOthers.add(entry);
		else fresh.push(entry);
	}
	return {
		known,
		fresh: fresh.length === batch.length ? batch : Int32Array.from(fresh),
		textedForOthers,
	};
}

/**
 * Reports a recipient as its record says, outside any batch posted now. One outcome (and one error)
 * per record, however many recipients it covers; an unconfirmed record keeps the campaign an error.
 */
function rememberEarlier(
	{ run, plan, posting }: { run: Replaying; plan: CampaignPlan; posting: Posting },
	entry: number,
	record: Recorded,
	seen: Map<Recorded, BatchOutcome>,
): void {
	let outcome = seen.get(record);
	if (!outcome) seen.set(record, (outcome = replayed(run.ctx, plan, record, record.body ?? '')));
	(posting.earlier ??= new Map()).set(entry, outcome);
	if (outcome.state === 'unconfirmed')
		posting.failure ??= { error: outcome.failure!, batch: 0, replayed: true };
}

/** What reporting from the record needs: no endpoint, no pacer. */
type Replaying = Pick<PostingContext, 'ctx' | 'ledger'>;

/**
 * The one pass that reports, from the record, the recipients this attempt does not post but an
 * earlier attempt did: skipped ones (a duplicate, excluded…), those of batches this attempt never
 * reached, and all of a campaign a rule now stops. A number texted then for another item that
 * listed it too is marked so. Numbers in batches posted now were looked up as they were posted.
 */
function replayUnposted(
	run: Replaying,
	plan: CampaignPlan,
	posting: Posting,
	lookedUp: readonly boolean[] = [],
): void {
	if (!run.ledger.retrying) return;
	const seen = new Map<Recorded, BatchOutcome>();
	const columns = plan.recipients;
	const { perRequest } = plan.settings;
	const posted = (entry: number) => {
		const position = columns.position(entry);
		return position !== undefined && lookedUp[Math.floor(position / perRequest)] === true;
	};
	for (const item of plan.items) {
		// One report per number of an item: a number the item lists twice was posted once.
		const reported = new Set<string | null>();
		for (let entry = item.first; entry < item.end; entry++)
			if (posted(entry)) reported.add(columns.msisdn(entry));
		for (let entry = item.first; entry < item.end; entry++) {
			const msisdn = columns.msisdn(entry);
			if (!msisdn || reported.has(msisdn)) continue;
			reported.add(msisdn);
			const record = run.ledger.recipient(Ledger.recipientKey(item.itemIndex, msisdn));
			if (record) rememberEarlier({ run, plan, posting }, entry, record, seen);
			else if (
				!columns.skip(entry) &&
				run.ledger.recipient(Ledger.duplicateKey(item.itemIndex, msisdn))
			) {
				(posting.textedForOthers ??= new Set()).add(entry);
			}
		}
	}
}

/**
 * A campaign (or a single item) that a rule stops on this attempt, as an earlier attempt of this
 * execution left it: what it posted is reported from the record, the rest `not sent` with the
 * rule. Undefined when no earlier attempt posted any of it: then it is a plain error.
 */
export function stoppedPosting(
	run: Replaying,
	plan: CampaignPlan,
	error: Error,
): Posting | undefined {
	if (!run.ledger.retrying) return undefined;
	const posting: Posting = { batches: [], requests: 0, retriedAfter429: 0 };
	replayUnposted(run, plan, posting);
	if (!posting.earlier && !posting.textedForOthers) return undefined;
	posting.failure = { error };
	return posting;
}

/** Reports the recipients an earlier attempt posted; the first unconfirmed one keeps the campaign an error. */
function replayKnown(
	{ run, plan, posting }: CampaignPost,
	known: Map<number, Recorded>,
	fingerprint: string,
	index: number,
) {
	const outcomes = new Map<Recorded, BatchOutcome>();
	for (const [entry, record] of known) {
		let outcome = outcomes.get(record);
		if (!outcome) {
			outcome = replayed(run.ctx, plan, record, fingerprint);
			outcomes.set(record, outcome);
			if (outcome.state === 'unconfirmed')
				posting.failure ??= { error: outcome.failure!, batch: index, replayed: true };
		}
		(posting.earlier ??= new Map()).set(entry, outcome);
	}
	return outcomes;
}

/**
 * The campaign's settings as the clock leaves them now (Quiet Hours and Send At judged at this moment), or why the
 * batch must not go.
 */
function settingsAt(
	run: PostingContext,
	plan: CampaignPlan,
	index: number,
): { ok: true; settings: CampaignSettings } | { ok: false; error: Error } {
	const { settings } = plan;
	const timing = sendAtWhenPosted(
		{
			scheduled: settings.scheduled === true,
			sendAt: settings.sendAt,
			quiet: settings.quiet ?? null,
		},
		new Date(),
	);
	if (!timing.ok) {
		const error = new NodeOperationError(
			run.ctx.getNode(),
			`Send At: ${timing.message}${batchLabel(index, plan.batchCount)}`,
			{
				itemIndex: plan.items[0].itemIndex,
			},
		);
		return { ok: false, error };
	}
	return {
		ok: true,
		settings: timing.sendAt === settings.sendAt ? settings : { ...settings, sendAt: timing.sendAt },
	};
}

/** A Send planned inside Quiet Hours already says so; one that entered them while going out is counted here. */
function noteMovedIntoQuietHours(
	plan: CampaignPlan,
	posted: CampaignSettings,
	posting: Posting,
): void {
	const { quiet, sendAt } = plan.settings;
	if (plan.settings.scheduled || !quiet || !posted.sendAt || posted.sendAt === sendAt) return;
	const moved = (posting.movedIntoQuietHours ??= {
		window: quiet,
		requests: 0,
		sendAt: posted.sendAt,
	});
	moved.requests++;
}

/**
 * One batch of a campaign: its recipients looked up in the record (those an earlier attempt
 * posted are reported from it), the rest posted. Whether the campaign goes on to its next batch.
 */
async function sendBatch(
	target: CampaignPost,
	index: number,
	{ duplicates, lookedUp }: { duplicates: ReturnType<typeof duplicatesOf>; lookedUp: boolean[] },
): Promise<boolean> {
	const { run, plan, posting } = target;
	const columns = plan.recipients;
	const batch = plan.batch(index);
	// The record is looked up with the body as the clock leaves it now; what goes is built when its slot is taken.
	const now = settingsAt(run, plan, index);
	if (!now.ok) {
		posting.batches[index] = { state: 'failed', failure: now.error };
		posting.failure = { error: now.error, batch: index };
		return false;
	}
	const whole = requestBody(now.settings, { columns, entries: batch });
	const fingerprint = Ledger.fingerprint(whole);
	const { known, fresh, textedForOthers } = earlierOf(run, columns, batch, fingerprint);
	lookedUp[index] = true;
	const replays = replayKnown(target, known, fingerprint, index);
	for (const entry of textedForOthers ?? []) (posting.textedForOthers ??= new Set()).add(entry);
	if (fresh.length === 0) {
		posting.batches[index] = replays.values().next().value ?? { state: 'not attempted' };
		return true;
	}
	const bodyFor = (settings: CampaignSettings) => {
		if (settings === now.settings && fresh === batch) return { body: whole, fingerprint };
		const body = requestBody(settings, { columns, entries: fresh });
		return { body, fingerprint: Ledger.fingerprint(body) };
	};
	let who: string | undefined;
	const whoOfFresh = () => (who ??= whoOf(columns, fresh, duplicates));
	const written = new WriteAhead(run.ledger, whoOfFresh);
	const { outcome, posted, settings } = await postBatch(target, index, bodyFor, written);
	written.settle(posted === undefined ? undefined : recorded(outcome, posted, whoOfFresh));
	if (settings && posted) noteMovedIntoQuietHours(plan, settings, posting);
	posting.batches[index] = outcome;
	const failure =
		outcome.state === 'failed' || outcome.state === 'unconfirmed' ? outcome.failure : undefined;
	if (failure) posting.failure = { error: failure, batch: index };
	return !failure;
}

/**
 * Sends a campaign's batches in order. A recipient this execution already posted is not posted
 * again, whatever its batch now looks like; every answer is recorded, with who it covers, before
 * anything else can fail. A failure stops the later batches; an unconfirmed batch of an earlier
 * attempt does not, as its later batches were never posted, but the campaign stays an error.
 */
export async function postCampaign(run: PostingContext, plan: CampaignPlan): Promise<Posting> {
	if (plan.settings.rehearsal) {
		// A retry switched to Dry Run still reports what an earlier attempt texted, from the record.
		const rehearsal = rehearse(run.campaignUrl, plan);
		replayUnposted(run, plan, rehearsal);
		return rehearsal;
	}
	const posting: Posting = {
		batches: Array.from({ length: plan.batchCount }, () => ({ state: 'not attempted' })),
		requests: 0,
		retriedAfter429: 0,
	};
	const shared = {
		duplicates: duplicatesOf(plan.recipients),
		/** Batches whose recipients were looked up in the record as they were about to be posted. */
		lookedUp: [] as boolean[],
	};
	for (let index = 0; index < plan.batchCount; index++) {
		if (run.stop.requested) break;
		if (!(await sendBatch({ run, plan, posting }, index, shared))) break;
	}
	replayUnposted(run, plan, posting, shared.lookedUp);
	return posting;
}
