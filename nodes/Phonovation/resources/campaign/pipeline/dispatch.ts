// Posts the campaigns side by side, as many as the pacer allows, each campaign's batches in order.
import type { Posting, PostingContext } from './posting';
import { postCampaign } from './post';
import { asNodeError } from '../../../eachItem';
import type { CampaignPlan } from './plan';

/**
 * Posts campaigns side by side: as many at a time as the pacer allows requests in flight, each
 * campaign's batches in order. With `stopOnFailure`, the first new failure stops new requests; those
 * in flight finish and are reported. A throw stops new requests too, and is thrown once every worker has settled.
 * Postings come back in the plans' order.
 */
export async function postAll(
	run: PostingContext,
	plans: CampaignPlan[],
	options: { workers: number; stopOnFailure: boolean },
): Promise<Posting[]> {
	const postings: Posting[] = new Array(plans.length);
	let next = 0;
	// Workers never reject, so every one has settled (its requests answered and recorded) when this is thrown.
	let thrown: { error: unknown } | undefined;
	const worker = async () => {
		while (next < plans.length && !run.stop.requested) {
			const index = next++;
			try {
				const posting = await postCampaign(run, plans[index]);
				postings[index] = posting;
				// An earlier attempt's unconfirmed batch keeps its campaign an error but stops no other.
				if (posting.failure && !posting.failure.replayed && options.stopOnFailure)
					run.stop.requested = true;
			} catch (error) {
				// Nothing new starts; the others' requests in flight finish and are recorded before this is thrown.
				run.stop.requested = true;
				thrown ??= { error };
			}
		}
	};
	await Promise.allSettled(
		Array.from({ length: Math.max(1, Math.min(options.workers, plans.length)) }, worker),
	);
	if (thrown) throw asNodeError(run.ctx, thrown.error);
	return postings;
}
