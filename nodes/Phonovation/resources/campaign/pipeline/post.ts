// Posting one campaign: its batches in order as the pacer allows, 429s waited out, answers kept.
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
import { sendAtWhenPosted } from '../../../domain/compliance';
import { Ledger } from './ledger';
import type { Slot } from './pacer';
import type { CampaignPlan, CampaignSettings } from './plan';
import type { BatchOutcome, Posting, PostingContext } from './posting';
import { earlierOf, RecordReport, replayUnposted } from './replay';
import { batchLabel, CAMPAIGN_PATH, requestBody } from './requestBody';
import { TOO_MANY_REQUESTS, waitAfterTooMany } from './tooManyRequests';
import { BatchWriteAhead, duplicatesOf, recorded, UNCONFIRMED_ADVICE, whoOf } from './writeAhead';

/** The provider's CampaignResponse (docs/provider-api.md#campaign-response). */
export interface CampaignResponse {
	success?: boolean;
	message?: string | null;
	errors?: string[] | null;
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
	written: BatchWriteAhead;
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
		request.written.aheadOf(request.fingerprint);
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
	written: BatchWriteAhead,
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
	const report = new RecordReport(run.ctx, plan, posting);
	for (const [entry, record] of known) report.add(entry, record, { fingerprint, batch: index });
	for (const entry of textedForOthers ?? []) (posting.textedForOthers ??= new Set()).add(entry);
	if (fresh.length === 0) {
		posting.batches[index] = report.outcomes.values().next().value ?? { state: 'not attempted' };
		return true;
	}
	const bodyFor = (settings: CampaignSettings) => {
		if (settings === now.settings && fresh === batch) return { body: whole, fingerprint };
		const body = requestBody(settings, { columns, entries: fresh });
		return { body, fingerprint: Ledger.fingerprint(body) };
	};
	let who: string | undefined;
	const whoOfFresh = () => (who ??= whoOf(columns, fresh, duplicates));
	const written = new BatchWriteAhead(run.ledger, whoOfFresh);
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
