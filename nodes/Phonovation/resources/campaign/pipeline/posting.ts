// What posting a campaign gives back (one outcome per batch, folded into a Posting) and what it
// needs: the types the pipeline's posting, replay, write-ahead and report share, in one place.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { QuietHours } from '../../../domain/quietHours';
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
