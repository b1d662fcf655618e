import type { Delivery, DeliveryContext } from './deliver';
import { deliver } from './deliver';
import { asNodeError } from '../../../eachItem';
import type { CampaignPlan } from './plan';

/**
 * Delivers campaigns side by side: as many at a time as the pacer allows requests in flight, each
 * campaign's batches in order. With `stopOnFailure`, the first new failure stops new requests; those
 * in flight finish and are reported. A throw stops new requests too, and is thrown once every worker has settled.
 * Deliveries come back in the plans' order.
 */
export async function deliverAll(
	run: DeliveryContext,
	plans: CampaignPlan[],
	options: { workers: number; stopOnFailure: boolean },
): Promise<Delivery[]> {
	const deliveries: Delivery[] = new Array(plans.length);
	let next = 0;
	// Workers never reject, so every one has settled (its requests answered and recorded) when this is thrown.
	let thrown: { error: unknown } | undefined;
	const worker = async () => {
		while (next < plans.length && !run.stop.requested) {
			const index = next++;
			try {
				const delivery = await deliver(run, plans[index]);
				deliveries[index] = delivery;
				// An earlier attempt's unconfirmed batch keeps its campaign an error but stops no other.
				if (delivery.failure && !delivery.failure.replayed && options.stopOnFailure)
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
	return deliveries;
}
