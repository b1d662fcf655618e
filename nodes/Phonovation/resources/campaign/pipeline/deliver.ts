import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FailedExchange } from '../../../transport/failures';
import { providerError } from '../../../transport/failures';
import { apiExchange } from '../../../transport/request';
import { Ledger, type Recorded } from './ledger';
import type { Pacer } from './pacer';
import type { CampaignPlan } from './plan';
import { batchLabel, CAMPAIGN_PATH, requestBody } from './requestBody';
import { TOO_MANY_REQUESTS, waitAfterTooMany } from './tooManyRequests';

/** The provider's CampaignResponse (service spec §2.3). */
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
	| { state: 'accepted'; message: string | null; errors: string[]; replayed?: boolean }
	/** `failure` set when the request itself failed (timeout, dropped connection): later batches stop. */
	| { state: 'unconfirmed'; reason: string; replayed?: boolean; failure?: Error }
	| { state: 'failed'; failure: Error }
	| { state: 'not attempted' }
	| { state: 'dry run' };

export interface Delivery {
	/** One outcome per batch of the plan, in order. */
	batches: BatchOutcome[];
	/** The failure that stopped the campaign, and the batch it happened on. */
	failure?: { error: Error; batch: number };
	/** Campaign requests posted (429s that were waited out and repeated included). */
	requests: number;
	/** Requests repeated after the provider answered 429. */
	retriedAfter429: number;
	/** A dry run's requests, exactly as they would have been posted. */
	dryRunRequests?: IDataObject[];
}

export interface DeliveryContext {
	ctx: IExecuteFunctions;
	ledger: Ledger;
	pacer: Pacer;
	/** The campaign endpoint, resolved once per run. */
	campaignUrl: string;
	/** Set when a failure must stop the run: no new request starts after it. */
	stop: { requested: boolean };
}

/** What would be posted, at the endpoint the run already resolved. */
function dryRun(url: string, plan: CampaignPlan): Delivery {
	return {
		batches: plan.batches.map(() => ({ state: 'dry run' })),
		requests: 0,
		retriedAfter429: 0,
		dryRunRequests: plan.batches.map((batch) => ({
			method: 'POST',
			url,
			body: JSON.parse(requestBody(plan.settings, batch).toString('utf8')) as IDataObject,
		})),
	};
}

const UNCONFIRMED_ADVICE = "check the provider's report before sending these numbers again";

/** Gateway answers: the provider behind the gateway may have processed the request. */
const GATEWAY_STATUSES = new Set([502, 504]);

/** A timeout, a dropped connection or a gateway error: the request may have been processed. */
function outcomeUnknown(failure: FailedExchange): boolean {
	if (failure.status !== undefined) return GATEWAY_STATUSES.has(failure.status);
	return !failure.loginFailed && failure.code !== 'ECONNREFUSED';
}

/** Reads the provider's answer to a posted batch. */
function answerOutcome(ctx: IExecuteFunctions, answer: unknown, where: string, itemIndex: number): BatchOutcome {
	const response = answer as CampaignResponse | undefined;
	if (!response || typeof response !== 'object' || typeof response.success !== 'boolean') {
		return { state: 'unconfirmed', reason: `the provider answered without a readable confirmation${where}; ${UNCONFIRMED_ADVICE}` };
	}
	if (response.success) return { state: 'accepted', message: response.message ?? null, errors: response.errors ?? [] };
	const said = [response.message, ...(response.errors ?? [])].filter(Boolean).join('; ');
	const failure = new NodeOperationError(
		ctx.getNode(),
		`Phonovation did not accept the campaign${where}: ${said || 'success was not true'}`,
		{ itemIndex },
	);
	return { state: 'failed', failure };
}

/** Posts one batch, waiting out and repeating 429s (the provider processed nothing). */
async function postBatch(
	run: DeliveryContext,
	plan: CampaignPlan,
	batch: { index: number; body: Buffer },
	delivery: Delivery,
): Promise<BatchOutcome> {
	const where = batchLabel(batch.index, plan.batches.length);
	const itemIndex = plan.items[0].itemIndex;
	const { body } = batch;
	for (let attempt = 0; ; attempt++) {
		const slot = await run.pacer.acquire();
		// Another campaign failed while this one waited for a slot (or out a 429): send nothing more.
		if (run.stop.requested) {
			run.pacer.release(slot, false);
			return { state: 'not attempted' };
		}
		delivery.requests++;
		let exchange: Awaited<ReturnType<typeof apiExchange<unknown>>> | undefined;
		try {
			exchange = await apiExchange<unknown>(run.ctx, {
				method: 'POST',
				path: CAMPAIGN_PATH,
				url: run.campaignUrl,
				body,
				timeoutMs: plan.settings.timeoutMs,
				itemIndex,
			});
		} finally {
			run.pacer.release(slot, exchange?.ok === true || (exchange !== undefined && exchange.failure.status !== 429));
		}
		if (exchange.ok) return answerOutcome(run.ctx, exchange.body, where, itemIndex);
		const { failure } = exchange;
		const wait = failure.status === 429 ? waitAfterTooMany(failure.retryAfter, new Date()) : null;
		if (wait !== null && attempt < TOO_MANY_REQUESTS.maxRetries) {
			// Refused before processing: safe to repeat once everyone has waited.
			delivery.retriedAfter429++;
			run.pacer.tooMany(wait);
			continue;
		}
		const error = providerError(run.ctx, `the campaign${where}`, failure, itemIndex);
		if (outcomeUnknown(failure)) {
			const reason = `${error.message}; the request may have reached the provider: ${UNCONFIRMED_ADVICE}`;
			return { state: 'unconfirmed', reason, failure: error };
		}
		return { state: 'failed', failure: error };
	}
}

function recorded(outcome: BatchOutcome): Recorded | undefined {
	if (outcome.state === 'accepted') return { state: 'accepted', message: outcome.message, errors: outcome.errors };
	if (outcome.state === 'unconfirmed') return { state: 'unconfirmed', reason: outcome.reason };
	return undefined;
}

/**
 * Sends a campaign's batches in order. A batch this execution already posted is not posted again;
 * every answer is recorded before anything else can fail. A failure stops the later batches.
 */
export async function deliver(run: DeliveryContext, plan: CampaignPlan): Promise<Delivery> {
	if (plan.settings.dryRun) return dryRun(run.campaignUrl, plan);
	const delivery: Delivery = {
		batches: plan.batches.map(() => ({ state: 'not attempted' })),
		requests: 0,
		retriedAfter429: 0,
	};
	for (let index = 0; index < plan.batches.length; index++) {
		if (run.stop.requested) break;
		const body = requestBody(plan.settings, plan.batches[index]);
		const fingerprint = Ledger.fingerprint(body);
		const earlier = run.ledger.get(fingerprint);
		if (earlier) {
			delivery.batches[index] = { ...earlier, replayed: true };
			continue;
		}
		const outcome = await postBatch(run, plan, { index, body }, delivery);
		const record = recorded(outcome);
		if (record) run.ledger.record(fingerprint, record);
		delivery.batches[index] = outcome;
		const failure = outcome.state === 'failed' || outcome.state === 'unconfirmed' ? outcome.failure : undefined;
		if (failure) {
			delivery.failure = { error: failure, batch: index };
			break;
		}
	}
	return delivery;
}
