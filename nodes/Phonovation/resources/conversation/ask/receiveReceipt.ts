// A receipt delivered to a waiting Send and Wait for Delivery: proven for its text, and put on its output.
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { provenReceipt } from '../proof/receiptProof';
import { DELIVERED, FAILED, onOutput } from './deliveryOutputs';
import { readPaused, type Resumption, secondsSince, stillWaiting } from './paused';

/**
 * Why a handset delivery receipt says the text failed: the provider gives counts, not a reason,
 * and signs only the Notify ID and the outcome (the counts are what the receipt said).
 */
function failedReason(parts: { toSend: number | null; failed: number | null }): string {
	const counted =
		parts.toSend !== null && parts.failed !== null
			? ` (its unsigned counts: ${parts.failed} of ${parts.toSend} parts failed)`
			: '';
	return `the handset delivery receipt says it was not delivered${counted}`;
}

/**
 * A receipt delivered to this waiting node's own resume URL (resume.ts). It resumes only with a
 * proof keyed by the Relay Secret for this execution and this text's Notify ID; anything else
 * leaves the run waiting. n8n resumes a run once, so a second receipt finds nothing waiting.
 */
export function receiveReceipt(ctx: IWebhookFunctions, secret: string): Resumption {
	const { item: waiting, state } = readPaused(ctx, 'receipt');
	const { notifyId } = state;
	if (notifyId === '') return stillWaiting(409, 'this run is not waiting for a receipt');
	const target = { executionId: ctx.getExecutionId(), reference: notifyId };
	const receipt = provenReceipt(ctx.getBodyData(), target, secret);
	if (!receipt) return stillWaiting(401, 'no valid proof');
	if (receipt.notifyId !== notifyId) return stillWaiting(409, 'the receipt is for another text');
	const delivered = receipt.outcome === 'delivered';
	const item: IDataObject = {
		...waiting,
		delivery: receipt.outcome,
		reason: delivered ? null : (receipt.reason ?? failedReason(receipt.parts)),
		receipt: {
			source: receipt.source,
			delivered,
			// Not covered by the provider's signature.
			unverified: {
				totalToSend: receipt.parts.toSend,
				totalSent: receipt.parts.sent,
				totalFailed: receipt.parts.failed,
				receivedAt: receipt.receivedAt,
			},
		},
		waitedSeconds: secondsSince(Date.parse(state.at)),
	};
	return {
		resumed: true,
		answer: receipt.outcome,
		// The item carries the paused item's fields: n8n 2.41 pairs a resumed node's items with the
		// input of the same index as their output, which this node does not have past the first.
		outputs: onOutput(delivered ? DELIVERED : FAILED, { json: item }),
	};
}
