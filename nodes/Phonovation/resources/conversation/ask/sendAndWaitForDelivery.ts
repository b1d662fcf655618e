// Send and Wait for Delivery: its fields, and its run: a text sent, the run paused until its receipt comes.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { optionsCollection } from '../../../../shared/optionsCollection';
import { asText } from '../../../../shared/values';
import { senderFields } from '../../sender/senderField';
import { operationFields, waitFields, waitOptions } from '../fields';
import { sealedResumeUrl } from '../proof/sealedResumeToken';
import { ask, notSentReason, type Wait, type WaitLimits } from './ask';
import { FAILED, NO_RECEIPT, onOutput } from './deliveryOutputs';
import { pause, writeWaitItem } from './paused';
import type { Listing } from '../../../resourceFields';

export { outputNames } from './deliveryOutputs';

/**
 * An hour by default (most receipts come within seconds to minutes), at most two days (the
 * provider's receipts can be up to 48 hours late).
 */
const DEFAULT_DELIVERY_WAIT_MINUTES = 60;
const DELIVERY_WAIT: WaitLimits = {
	min: 1,
	max: 2880,
	fallback: DEFAULT_DELIVERY_WAIT_MINUTES,
};

export const description = operationFields('sendAndWaitForDelivery', [
	// The paused item, read back when the receipt comes, so every branch carries the input's fields.
	...waitFields('text', senderFields(), 'Reminder: your appointment is tomorrow at 10:00'),
	optionsCollection([
		...waitOptions('text'),
		{
			displayName: 'Limit Wait Time (Minutes)',
			name: 'limitWaitTime',
			type: 'number',
			typeOptions: { minValue: DELIVERY_WAIT.min, maxValue: DELIVERY_WAIT.max },
			default: DEFAULT_DELIVERY_WAIT_MINUTES,
			description:
				'After this many minutes without a delivery receipt the run goes on at No Receipt (1 to 2,880). No receipt does not mean not delivered: receipts can come up to 48 hours late. n8n checks waiting runs once a minute.',
		},
	]),
]);

/** Send and Wait for Delivery's part in the ask step (ask.ts). */
const DELIVERY: Wait = {
	operation: 'Send and Wait for Delivery',
	waitsFor: 'receipt',
	notATool: 'it pauses the run until a receipt comes',
	once: 'texts one number',
	limits: DELIVERY_WAIT,
	proves: 'that a receipt is for this text',
	/**
	 * This node's resume URL under the run's resume token, the token sealed (sealedResumeToken.ts):
	 * n8n checks a node-signed URL (getSignedResumeUrl) only for the `sendAndWait` operation, and the
	 * run's token, which opens every later wait of the run, for any other. The node's id in the path
	 * reaches this node's webhook, where the receipt's proof decides.
	 */
	resumeUrl: (ctx, secret) =>
		sealedResumeUrl(
			asText(ctx.getWorkflowDataProxy(0).$execution.resumeUrl),
			ctx.getNode().id,
			secret,
		),
};

/**
 * Records the text in the Question Log (waiting for a receipt, not a reply), texts one number
 * through the campaign pipeline, then puts the execution to wait until Deliver Receipt brings the
 * text's delivery receipt to this node's own resume URL (receiveReceipt.ts) or Limit Wait Time
 * passes. A number the provider refuses goes out of Failed at once. Every mistake is caught
 * before the text is sent.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	const { state, now, waitTill, outcome } = await ask(this, items, DELIVERY);
	if (outcome.kind === 'error') return onOutput(FAILED, outcome.item);
	const after = { receipt: null };
	if (outcome.kind === 'notSent') {
		// The provider refused the number (or the sender for it): nothing to wait for.
		const { report } = outcome;
		const says = { delivery: 'failed', reason: notSentReason(report) };
		writeWaitItem(items[0], 'receipt', { says, state, sent: report, after });
		return onOutput(FAILED, { ...items[0], pairedItem: { item: 0 } });
	}
	// n8n passes the paused item on unchanged out of No Receipt when the limit passes: it says so.
	const minutes = Math.round((waitTill.getTime() - now.getTime()) / 60_000);
	const says = {
		delivery: 'noReceipt',
		reason: `no delivery receipt within ${minutes} minute${minutes === 1 ? '' : 's'}; the text may still arrive (receipts can come up to 48 hours late)`,
	};
	await pause(this, items[0], 'receipt', {
		says,
		state,
		sent: outcome.report,
		after,
		until: waitTill,
	});
	return onOutput(NO_RECEIPT, items[0]);
}

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Send and Wait for Delivery',
	'Text one number and pause until its delivery receipt: go on at Delivered, Failed or No Receipt',
	'Send a text and wait for its delivery',
	'docs/conversations.md#send-and-wait-for-delivery',
];
