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
import { SEND_TIME } from '../options';
import { Ledger } from './ledger';
import type { Slot } from './pacer';
import type { CampaignPlan, CampaignSettings } from './plan';
import {
	type BatchOutcome,
	type BatchResult,
	foldPosting,
	type Posting,
	type PostingContext,
} from './posting';
import { earlierOf, RecordReport, replayUnposted } from './replay';
import { batchLabel, CAMPAIGN_PATH, requestBody } from './requestBody';
import { TOO_MANY_REQUESTS, waitAfterTooMany } from './tooManyRequests';
import { BatchWriteAhead, duplicatesOf, UNCONFIRMED_ADVICE } from './writeAhead';

/** The provider's CampaignResponse (docs/provider-api.md#campaign-response). */
export interface CampaignResponse {
	success?: boolean;
	message?: string | null;
	errors?: string[] | null;
}

/** What would be posted, at the endpoint the run already resolved: a result per batch. */
function rehearse(url: string, plan: CampaignPlan): BatchResult[] {
	const columns = plan.recipients;
	return Array.from({ length: plan.batchCount }, (_, index) => ({
		batch: { index, outcome: { state: 'dry run' } },
		dryRunRequest: {
			method: 'POST',
			url,
			body: JSON.parse(
				requestBody(plan.settings, { columns, entries: plan.batch(index) }).toString('utf8'),
			) as IDataObject,
		},
	}));
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

/**
 * A batch as posted: its outcome, the fingerprint of the body that went (if any), the settings it
 * went with, the requests made and how many repeated a 429.
 */
interface Posted {
	outcome: BatchOutcome;
	posted?: string;
	settings?: CampaignSettings;
	requests: number;
	retriedAfter429: number;
}

/** The campaign being posted: where it goes and what it is. */
interface CampaignPost {
	run: PostingContext;
	plan: CampaignPlan;
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
	{ run, plan }: CampaignPost,
	index: number,
	bodyFor: (settings: CampaignSettings) => { body: Buffer; fingerprint: string },
	written: BatchWriteAhead,
): Promise<Posted> {
	const counts = { requests: 0, retriedAfter429: 0 };
	for (let attempt = 0; ; attempt++) {
		const slot = await run.pacer.acquire(attempt > 0);
		const ready = readyToPost(run, plan, index);
		if (!ready.ok) {
			run.pacer.release(slot, false);
			return { outcome: ready.outcome, ...counts };
		}
		const { settings } = ready;
		const { body, fingerprint } = bodyFor(settings);
		counts.requests++;
		const exchange = await exchangeInSlot(run, plan, { slot, body, fingerprint, written });
		if (exchange.ok) {
			const where = batchLabel(index, plan.batchCount);
			const outcome = answerOutcome(run.ctx, exchange.body, where, plan.items[0].itemIndex);
			return { outcome, posted: fingerprint, settings, ...counts };
		}
		const { failure } = exchange;
		const wait =
			failure.status === 429 && provesRefusal(429, failure.body)
				? waitAfterTooMany(failure.retryAfter, new Date())
				: null;
		if (wait !== null && attempt < TOO_MANY_REQUESTS.maxRetries) {
			// Refused before processing: safe to repeat once everyone has waited.
			written.refused();
			counts.retriedAfter429++;
			run.pacer.tooMany(wait);
			continue;
		}
		const outcome = failedOutcome(run, plan, index, failure);
		return { outcome, posted: fingerprint, settings, ...counts };
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
	const timing = SEND_TIME.whenPosted(
		settings.sendTime ?? null,
		{ scheduled: settings.scheduled === true, sendAt: settings.sendAt },
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

/** A Send the rule moved at plan already says so; one it moved while going out is counted here. */
function movedBySendTime(
	plan: CampaignPlan,
	posted: CampaignSettings,
): BatchResult['movedBySendTime'] {
	const { sendTime, sendAt, scheduled } = plan.settings;
	if (scheduled || sendTime == null || !posted.sendAt || posted.sendAt === sendAt) return undefined;
	return { judged: sendTime, sendAt: posted.sendAt };
}

/** The failure a batch's outcome makes the campaign, at that batch. */
function failureOf(outcome: BatchOutcome, index: number): Posting['failure'] {
	const error =
		outcome.state === 'failed' || outcome.state === 'unconfirmed' ? outcome.failure : undefined;
	return error && { error, batch: index };
}

/** A batch's recipients no earlier attempt posted, and the body the clock allowed when looked up. */
interface FreshBatch {
	/** The whole batch, and those of it to post now (the same array when nothing was posted before). */
	batch: Int32Array;
	fresh: Int32Array;
	/** The settings the record was looked up with, and the whole batch's body and fingerprint then. */
	looked: { settings: CampaignSettings; body: Buffer; fingerprint: string };
}

/** Posts a batch's fresh recipients, its record written ahead and settled: what it found. */
async function postFresh(
	target: CampaignPost,
	index: number,
	{ batch, fresh, looked }: FreshBatch,
	duplicates: ReturnType<typeof duplicatesOf>,
): Promise<BatchResult> {
	const { plan } = target;
	const columns = plan.recipients;
	const bodyFor = (settings: CampaignSettings) => {
		if (settings === looked.settings && fresh === batch) return looked;
		const body = requestBody(settings, { columns, entries: fresh });
		return { body, fingerprint: Ledger.fingerprint(body) };
	};
	const written = new BatchWriteAhead(target.run.ledger, { columns, entries: fresh, duplicates });
	const posted = await postBatch(target, index, bodyFor, written);
	const { outcome, settings, requests, retriedAfter429 } = posted;
	written.settle(
		posted.posted === undefined ? undefined : written.recordOf(outcome, posted.posted),
	);
	return {
		batch: { index, outcome },
		failure: failureOf(outcome, index),
		requests,
		retriedAfter429,
		movedBySendTime: settings && posted.posted ? movedBySendTime(plan, settings) : undefined,
	};
}

/**
 * One batch of a campaign: its recipients looked up in the record (those an earlier attempt
 * posted are reported from it), the rest posted. What it found, and whether the campaign goes on
 * to its next batch.
 */
async function sendBatch(
	target: CampaignPost,
	index: number,
	{ duplicates, lookedUp }: { duplicates: ReturnType<typeof duplicatesOf>; lookedUp: boolean[] },
): Promise<{ results: BatchResult[]; goOn: boolean }> {
	const { run, plan } = target;
	const columns = plan.recipients;
	const batch = plan.batch(index);
	// The record is looked up with the body as the clock leaves it now; what goes is built when its slot is taken.
	const now = settingsAt(run, plan, index);
	if (!now.ok) {
		const outcome: BatchOutcome = { state: 'failed', failure: now.error };
		const failure = failureOf(outcome, index);
		return { results: [{ batch: { index, outcome }, failure }], goOn: false };
	}
	const body = requestBody(now.settings, { columns, entries: batch });
	const fingerprint = Ledger.fingerprint(body);
	const { known, fresh, textedForOthers } = earlierOf(run, columns, batch, fingerprint);
	lookedUp[index] = true;
	const report = new RecordReport(run.ctx, plan);
	for (const [entry, record] of known) report.add(entry, record, { fingerprint, batch: index });
	const fromRecord = report.result(textedForOthers);
	if (fresh.length === 0) {
		const outcome = report.outcomes.values().next().value ?? { state: 'not attempted' };
		return { results: [fromRecord, { batch: { index, outcome } }], goOn: true };
	}
	const looked = { settings: now.settings, body, fingerprint };
	const sent = await postFresh(target, index, { batch, fresh, looked }, duplicates);
	return { results: [fromRecord, sent], goOn: !sent.failure };
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
		return foldPosting(plan.batchCount, [
			...rehearse(run.campaignUrl, plan),
			replayUnposted(run, plan),
		]);
	}
	const shared = {
		duplicates: duplicatesOf(plan.recipients),
		/** Batches whose recipients were looked up in the record as they were about to be posted. */
		lookedUp: [] as boolean[],
	};
	const results: BatchResult[] = [];
	for (let index = 0; index < plan.batchCount; index++) {
		if (run.stop.requested) break;
		const batch = await sendBatch({ run, plan }, index, shared);
		results.push(...batch.results);
		if (!batch.goOn) break;
	}
	results.push(replayUnposted(run, plan, shared.lookedUp));
	return foldPosting(plan.batchCount, results);
}
