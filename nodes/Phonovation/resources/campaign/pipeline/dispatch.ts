import type { Delivery, DeliveryContext } from './deliver';
import { deliver } from './deliver';
import type { CampaignPlan } from './plan';

/**
 * Delivers campaigns side by side: as many at a time as the pacer allows requests in flight, each
 * campaign's batches in order. With `stopOnFailure`, the first new failure stops new requests; those
 * in flight finish and are reported. Deliveries come back in the plans' order.
 */
export async function deliverAll(
	run: DeliveryContext,
	plans: CampaignPlan[],
	options: { workers: number; stopOnFailure: boolean },
): Promise<Delivery[]> {
	const deliveries: Delivery[] = new Array(plans.length);
	let next = 0;
	const worker = async () => {
		while (next < plans.length && !run.stop.requested) {
			const index = next++;
			const delivery = await deliver(run, plans[index]);
			deliveries[index] = delivery;
			// An earlier attempt's unconfirmed batch keeps its campaign an error but stops no other.
			if (delivery.failure && !delivery.failure.replayed && options.stopOnFailure) run.stop.requested = true;
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(options.workers, plans.length)) }, worker));
	return deliveries;
}
