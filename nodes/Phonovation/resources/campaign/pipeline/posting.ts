// What posting a campaign gives back (what each batch returns, folded into a Posting) and what it
// needs: the types the pipeline's posting, replay, write-ahead and report share, in one place.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Ledger } from './ledger';
import type { Pacer } from './pacer';

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
	/** Requests of a Send the send-time rule moved while it went out (Quiet Hours began), and the sendAt they got. */
	movedBySendTime?: { judged: unknown; requests: number; sendAt: string };
	/** A dry run's requests, exactly as they would have been posted. */
	dryRunRequests?: IDataObject[];
}

/**
 * What one step of posting a campaign found: a batch posted (or not), the record's recipients a
 * batch or the final pass reports, a dry run's request. Folded in order into the Posting.
 */
export interface BatchResult {
	/** A batch's outcome, at its index in the plan. */
	batch?: { index: number; outcome: BatchOutcome };
	/** The failure this step makes the campaign; a `replayed` one never replaces an earlier failure. */
	failure?: Posting['failure'];
	/** Recipients an earlier attempt posted, with what became of them. */
	earlier?: ReadonlyMap<number, BatchOutcome>;
	/** Recipients an earlier attempt texted for another item. */
	textedForOthers?: ReadonlySet<number>;
	requests?: number;
	retriedAfter429?: number;
	/** A Send's request the send-time rule moved while it went out, with its sendAt. */
	movedBySendTime?: { judged: unknown; sendAt: string };
	dryRunRequest?: IDataObject;
}

/**
 * The one place a Posting is built: the results of a campaign's steps in the order they happened,
 * over its `batchCount` batches (each `not attempted` until a result says otherwise). `stopped`: a
 * rule that stops the campaign on this attempt, which is its failure whatever the record says.
 */
export function foldPosting(
	batchCount: number,
	results: readonly BatchResult[],
	stopped?: Error,
): Posting {
	const posting: Posting = {
		batches: Array.from({ length: batchCount }, () => ({ state: 'not attempted' })),
		requests: 0,
		retriedAfter429: 0,
	};
	for (const result of results) {
		if (result.batch) posting.batches[result.batch.index] = result.batch.outcome;
		if (result.failure && (!result.failure.replayed || !posting.failure))
			posting.failure = result.failure;
		for (const [entry, outcome] of result.earlier ?? [])
			(posting.earlier ??= new Map()).set(entry, outcome);
		for (const entry of result.textedForOthers ?? [])
			(posting.textedForOthers ??= new Set()).add(entry);
		posting.requests += result.requests ?? 0;
		posting.retriedAfter429 += result.retriedAfter429 ?? 0;
		if (result.movedBySendTime) {
			const { judged, sendAt } = result.movedBySendTime;
			(posting.movedBySendTime ??= { judged, sendAt, requests: 0 }).requests++;
		}
		if (result.dryRunRequest) (posting.dryRunRequests ??= []).push(result.dryRunRequest);
	}
	if (stopped) posting.failure = { error: stopped };
	return posting;
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
