// The node's one resume webhook: what comes to a waiting Send and Wait node resumes it, or is told why not.
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { relaySecretOf } from '../proof/relaySecret';
import { type Resumption, stillWaiting } from './paused';
import { receiveReceipt } from './receiveReceipt';
import { receiveReply } from './receiveReply';

/** The caller answered here: for a waiting run n8n would send "firstEntryJson", not webhookResponse. */
function answered(ctx: IWebhookFunctions, taken: Resumption): IWebhookResponseData {
	if (!taken.resumed) {
		const body: IDataObject = { resumed: false, reason: taken.reason };
		if (taken.reprompt) body.reprompt = taken.reprompt;
		ctx.getResponseObject().status(taken.status).json(body);
		return { noWebhookResponse: true };
	}
	ctx.getResponseObject().status(200).json({ resumed: true, answer: taken.answer });
	return { noWebhookResponse: true, workflowData: taken.outputs };
}

/**
 * A reply (Send and Wait for Reply) or a receipt (Send and Wait for Delivery) posted to the waiting
 * node's own resume URL, checked under the Relay Secret. `resumed: true` in the answer is the only
 * success Deliver Reply and Deliver Receipt count; otherwise the run stays waiting and the caller
 * is told why. Never throws: n8n would resume the run as failed.
 */
export async function resume(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	let taken: Resumption;
	try {
		const forDelivery = this.getNodeParameter('operation', '') === 'sendAndWaitForDelivery';
		const secret = await relaySecretOf(this);
		taken = forDelivery ? receiveReceipt(this, secret) : receiveReply(this, secret);
	} catch (error) {
		taken = stillWaiting(400, (error as Error).message);
	}
	return answered(this, taken);
}
