import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asText } from '../../../shared/values';
import { DELIVERY_WAIT, sendAndWaitForDeliveryDescription } from './fields';
import { recordQuestion } from './questionLog';
import { recordedResumeUrl } from './retryBinding';
import { sealedResumeUrl } from './sealedResumeToken';
import {
	beginRun,
	notSent,
	numberToText,
	relaySecretFor,
	textOfThisRun,
	textOnce,
	waitTillOf,
} from './textOnce';

export const description = sendAndWaitForDeliveryDescription;

/**
 * The node's outputs, in this order: n8n resumes a run whose Limit Wait Time passed by passing
 * the paused item out of the first output, so No Receipt must be it.
 */
export const outputNames = ['No Receipt', 'Delivered', 'Failed'] as const;
export const NO_RECEIPT = 0;
export const DELIVERED = 1;
export const FAILED = 2;

/** One item on one of the three outputs. */
export function onOutput(output: number, item: INodeExecutionData): INodeExecutionData[][] {
	return outputNames.map((_, index) => (index === output ? [item] : []));
}

/**
 * This node's resume URL under the run's resume token, the token sealed (sealedResumeToken.ts):
 * n8n checks a node-signed URL (getSignedResumeUrl) only for the `sendAndWait` operation, and the
 * run's token, which opens every later wait of the run, for any other. The node's id in the path
 * reaches this node's webhook, where the receipt's proof decides.
 */
const ownResumeUrl = (ctx: IExecuteFunctions, secret: string) =>
	sealedResumeUrl(
		asText(ctx.getWorkflowDataProxy(0).$execution.resumeUrl),
		ctx.getNode().id,
		secret,
	);

/**
 * Records the text in the Question Log (waiting for a receipt, not a reply), texts one number
 * through the campaign pipeline, then puts the execution to wait until Deliver Receipt brings the
 * text's delivery receipt to this node's own resume URL (receiveReceipt.ts) or Limit Wait Time
 * passes. A number the provider refuses goes out of Failed at once. Every mistake is caught
 * before the text is sent.
 */
// eslint-disable-next-line max-lines-per-function -- to split with the shared ask step (issue 44)
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[][]> {
	// First, so a run that stops on a mistake leaves its record: a Retry after the fix sends.
	const ask = beginRun(this);
	if (this.getNode().type.endsWith('Tool')) {
		throw notSent(
			this,
			"Send and Wait for Delivery cannot be an AI Agent's tool: it pauses the run until a receipt comes",
		);
	}
	if (items.length !== 1) {
		throw notSent(
			this,
			`Send and Wait for Delivery texts one number per execution, and ${items.length} items came in: call a sub-workflow once per item (Execute Workflow, Mode: Run once for each item)`,
		);
	}
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const msisdn = numberToText(this, options.defaultCountryCode);
	const now = new Date();
	const waitTill = waitTillOf(this, options.limitWaitTime, DELIVERY_WAIT, now);
	const secret = await relaySecretFor(this, 'that a receipt is for this text');
	const { notifyId, askedAt } = textOfThisRun(this, { ask, msisdn, at: now }, secret);
	// Recorded before it is sent: a receipt nobody could hand over would leave the run at No Receipt.
	await recordQuestion(this, {
		reference: notifyId,
		phone: msisdn,
		resumeUrl: recordedResumeUrl(
			ownResumeUrl(this, secret),
			{ reference: notifyId, executionId: this.getExecutionId(), nodeId: this.getNode().id },
			secret,
		),
		askedAt,
		expiresAt: waitTill.toISOString(),
		waitsFor: 'receipt',
	});

	const outcome = await textOnce(this, items, { ask, msisdn, notifyId });
	if (outcome.kind === 'error') return onOutput(FAILED, outcome.item);
	const about = { to: msisdn, notifyId, sentAt: askedAt };
	if (outcome.kind === 'notSent') {
		// The provider refused the number (or the sender for it): nothing to wait for.
		const { report } = outcome;
		const reason = `${asText(report.status)}${report.reason ? `: ${asText(report.reason)}` : ''}`;
		items[0].json = {
			...items[0].json,
			delivery: 'failed',
			reason,
			...about,
			sent: report,
			receipt: null,
		};
		return onOutput(FAILED, { ...items[0], pairedItem: { item: 0 } });
	}
	// n8n passes the paused item on unchanged out of No Receipt when the limit passes: it says so.
	const minutes = Math.round((waitTill.getTime() - now.getTime()) / 60_000);
	items[0].json = {
		...items[0].json,
		delivery: 'noReceipt',
		reason: `no delivery receipt within ${minutes} minute${minutes === 1 ? '' : 's'}; the text may still arrive (receipts can come up to 48 hours late)`,
		...about,
		sent: outcome.report,
		receipt: null,
	};
	await this.putExecutionToWait(waitTill);
	return onOutput(NO_RECEIPT, items[0]);
}
