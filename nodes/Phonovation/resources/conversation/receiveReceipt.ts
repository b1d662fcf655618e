import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { asText } from '../../../shared/values';
import { provenReceipt } from './receiptProof';
import { DELIVERED, FAILED, onOutput } from './sendAndWaitForDelivery';

/** Answered to the caller (Deliver Receipt); the run stays waiting. */
function stillWaiting(
	ctx: IWebhookFunctions,
	status: number,
	reason: string,
): IWebhookResponseData {
	ctx.getResponseObject().status(status).json({ resumed: false, reason });
	return { noWebhookResponse: true };
}

/** The paused item (sendAndWaitForDelivery wrote it; a hidden parameter reads it back). */
function waitingItem(ctx: IWebhookFunctions): IDataObject {
	const item = ctx.getNodeParameter('waitingItem', {}) as unknown;
	return item && typeof item === 'object' && !Array.isArray(item) ? (item as IDataObject) : {};
}

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
 * A receipt delivered to this waiting node's own resume URL. It resumes only with a proof keyed
 * by the Relay Secret for this execution and this text's Notify ID; anything else leaves the run
 * waiting. n8n resumes a run once, so a second receipt finds nothing waiting. `resumed: true` is
 * the only success Deliver Receipt counts. Never throws: n8n would resume the run as failed.
 */
export async function receiveReceipt(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	try {
		const secret = asText((await this.getCredentials('phonovationApi')).relaySecret);
		const waiting = waitingItem(this);
		const notifyId = asText(waiting.notifyId);
		if (notifyId === '') return stillWaiting(this, 409, 'this run is not waiting for a receipt');
		const target = { executionId: this.getExecutionId(), reference: notifyId };
		const receipt = provenReceipt(this.getBodyData(), target, secret);
		if (!receipt) return stillWaiting(this, 401, 'no valid proof');
		if (receipt.notifyId !== notifyId)
			return stillWaiting(this, 409, 'the receipt is for another text');
		const sentAt = Date.parse(asText(waiting.sentAt));
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
			waitedSeconds: Number.isNaN(sentAt)
				? null
				: Math.max(0, Math.round((Date.now() - sentAt) / 1000)),
		};
		// Answered here: for a waiting run n8n would send "firstEntryJson", not webhookResponse.
		this.getResponseObject().status(200).json({ resumed: true, answer: receipt.outcome });
		return {
			noWebhookResponse: true,
			// The item carries the paused item's fields: n8n 2.41 pairs a resumed node's items with the
			// input of the same index as their output, which this node does not have past the first.
			workflowData: onOutput(delivered ? DELIVERED : FAILED, { json: item }),
		};
	} catch (error) {
		return stillWaiting(this, 400, (error as Error).message);
	}
}
