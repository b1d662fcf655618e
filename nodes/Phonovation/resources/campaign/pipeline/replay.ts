// Replay of earlier attempts: what a Retry finds in the record is reported from it, never posted again.
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Ledger, type Recorded } from './ledger';
import type { CampaignPlan } from './plan';
import { type BatchOutcome, type BatchResult, foldPosting, type Posting } from './posting';
import type { CampaignRecipients } from './recipients';

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
 * Splits a batch into the recipients an earlier attempt already posted (with their record) and
 * those still to post. Only a retry looks anything up.
 */
export function earlierOf(
	run: Replaying,
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

/** What reporting from the record needs: no endpoint, no pacer. */
export interface Replaying {
	ctx: IExecuteFunctions;
	ledger: Ledger;
}

/**
 * Reports recipients as their records say. One outcome (and one error) per record, however many
 * recipients it covers; an unconfirmed record keeps the campaign an error, at the batch it is met in.
 */
export class RecordReport {
	readonly outcomes = new Map<Recorded, BatchOutcome>();
	private readonly earlier = new Map<number, BatchOutcome>();
	private failure?: Posting['failure'];

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly plan: CampaignPlan,
	) {}

	/** `fingerprint`: the body this attempt would post for it (its own record's when none is posted now). */
	add(entry: number, record: Recorded, at: { fingerprint?: string; batch?: number } = {}): void {
		let outcome = this.outcomes.get(record);
		if (!outcome) {
			outcome = replayed(this.ctx, this.plan, record, at.fingerprint ?? record.body ?? '');
			this.outcomes.set(record, outcome);
			if (outcome.state === 'unconfirmed')
				this.failure ??= { error: outcome.failure!, batch: at.batch ?? 0, replayed: true };
		}
		this.earlier.set(entry, outcome);
	}

	/** What the records reported add to the campaign's Posting. */
	result(textedForOthers?: ReadonlySet<number>): BatchResult {
		return { earlier: this.earlier, failure: this.failure, textedForOthers };
	}
}

/**
 * The one pass that reports, from the record, the recipients this attempt does not post but an
 * earlier attempt did: skipped ones (a duplicate, excluded…), those of batches this attempt never
 * reached, and all of a campaign a rule now stops. A number texted then for another item that
 * listed it too is marked so. Numbers in batches posted now were looked up as they were posted.
 */
export function replayUnposted(
	run: Replaying,
	plan: CampaignPlan,
	lookedUp: readonly boolean[] = [],
): BatchResult {
	if (!run.ledger.retrying) return {};
	const report = new RecordReport(run.ctx, plan);
	const textedForOthers = new Set<number>();
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
			if (record) report.add(entry, record);
			else if (
				!columns.skip(entry) &&
				run.ledger.recipient(Ledger.duplicateKey(item.itemIndex, msisdn))
			) {
				textedForOthers.add(entry);
			}
		}
	}
	return report.result(textedForOthers);
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
	const found = replayUnposted(run, plan);
	if (!found.earlier?.size && !found.textedForOthers?.size) return undefined;
	return foldPosting(0, [found], error);
}
