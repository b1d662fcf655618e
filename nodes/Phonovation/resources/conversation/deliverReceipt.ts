import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { DEFAULT_COUNTRY_CODE } from '../../domain/rules';
import { isQuestionRefShaped } from '../../../shared/questionRef';
import { asText } from '../../../shared/values';
import { deliverReceiptDescription } from './fields';
import { findQuestions, type LoggedQuestion } from './questionLog';
import { type DeliveredReceipt, receiptProof } from './receiptProof';
import { asInternational } from './replyProof';
import type { ResumeTarget } from './resumeUrl';
import {
	deliverEach,
	postToWaitingRun,
	requireSecret,
	sortRows,
	unusableRowsOf,
} from './waitingRuns';

export const description = deliverReceiptDescription;

/**
 * Pauses between tries while n8n cannot take the receipt yet: a receipt can come before the run
 * that sent the text has paused (n8n answers 409 while it runs), so it is offered for about 15 s.
 */
const RETRY = {
	pausesMs: [1_000, 2_000, 4_000, 8_000],
	failure: 'The waiting run could not take the receipt',
};

const orNull = (value: unknown) =>
	value === null || value === undefined || value === '' ? null : asText(value);
const countOrNull = (value: unknown) =>
	typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;

type Read = { receipt: DeliveredReceipt; to: string | null } | { skip: string };

/** The receipt a trigger item reports, or why it changes nothing. */
function readReceipt(item: IDataObject): Read {
	const notifyId = orNull(item.notifyId);
	if (item.event === 'processingResult') {
		// Queued is not delivered: the handset's receipt follows. Only a refusal is final.
		if (item.status !== 'MESSAGE_ERROR')
			return { skip: `a processing result "${asText(item.status)}" is not final` };
		if (notifyId === null) return { skip: 'the processing result has no Notify ID' };
		return {
			receipt: {
				notifyId,
				outcome: 'failed',
				source: 'processingResult',
				reason: orNull(item.message) ?? 'the provider could not process the text',
				parts: { toSend: null, sent: null, failed: null },
				receivedAt: orNull(item.finishedAt),
			},
			to: null,
		};
	}
	if (notifyId === null) return { skip: 'the receipt has no Notify ID' };
	const unverified = (item.unverified ?? {}) as IDataObject;
	return {
		receipt: {
			notifyId,
			outcome: item.delivered === true ? 'delivered' : 'failed',
			source: 'deliveryReceipt',
			reason: null,
			parts: {
				toSend: countOrNull(unverified.totalToSend),
				sent: countOrNull(unverified.totalSent),
				failed: countOrNull(unverified.totalFailed),
			},
			receivedAt: orNull(unverified.receivedAt),
		},
		to: orNull(unverified.to),
	};
}

/** Posts the receipt to each usable row in turn (the live one answers for itself); what became of it. */
async function offerReceipt(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rows: Array<{ row: LoggedQuestion; target: ResumeTarget }>,
	signed: { receipt: DeliveredReceipt; secret: string },
): Promise<IDataObject> {
	const { receipt, secret } = signed;
	let outcome: IDataObject | undefined;
	for (const { row, target } of rows) {
		const { executionId } = target;
		const proof = receiptProof({ executionId, reference: row.reference }, receipt, secret);
		const body = { ...receipt, proof };
		const posted = await postToWaitingRun(ctx, itemIndex, { target, body }, RETRY);
		const text = { reference: row.reference, executionId };
		if (posted.state === 'resumed') return { resumed: true, delivery: receipt.outcome, text };
		// This run may have taken it: no other row is tried.
		if (posted.state === 'unconfirmed')
			return { resumed: false, unconfirmed: true, reason: posted.reason, text };
		outcome ??=
			posted.state === 'refused'
				? { resumed: false, reason: posted.reason, text }
				: { resumed: false, reason: 'no run is waiting for this text any more', text };
	}
	return outcome ?? { resumed: false, reason: 'no run is waiting for this text' };
}

/**
 * Finds the run waiting for the text a verified receipt reports on (by its Notify ID, which the
 * provider signs) in the Question Log, and posts the receipt, with its proof, to that run's resume
 * URL (rebuilt by the resume URL rule; rows it refuses are listed as `unusableRows`). The item
 * goes on with `resumed` and, when it is false, why (no run waits for that text, it was already
 * resumed, the receipt is not final…); `unconfirmed: true` when a run may have taken it unseen.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const handing = {
		operation: 'Deliver Receipt',
		notATool: 'only a verified receipt may resume a run',
		parameter: 'receipt',
		label: 'Receipt',
		events: { deliveryReceipt: 'Delivery Receipt', processingResult: 'Processing Result' },
		triggerName: 'On Receipt',
	};
	return await deliverEach(
		this,
		items,
		handing,
		async ({ itemIndex, item, out, secret, waitingBase }) => {
			// A processing result leaves the trigger only after its URL token was checked; it carries no
			// signature, so no `verified` either. A delivery receipt must be signed.
			const vouched =
				item.event === 'processingResult' ? item.verified !== false : item.verified === true;
			if (!vouched)
				return out({
					resumed: false,
					reason: 'the receipt was not verified by the Phonovation Trigger',
				});
			const read = readReceipt(item);
			if ('skip' in read) return out({ resumed: false, reason: read.skip });
			const { receipt } = read;
			// Receipts of every campaign come to the inbox: only one of this node's texts has a waiting run.
			if (!isQuestionRefShaped(receipt.notifyId))
				return out({ resumed: false, reason: 'no run is waiting for this text' });
			const to =
				read.to === null ? null : normaliseMsisdn(asInternational(read.to), DEFAULT_COUNTRY_CODE);
			const rows = await findQuestions(this, itemIndex, to?.ok ? to.msisdn : '', receipt.notifyId);
			// Every row for this text, in case a log kept more than one (the live one answers for itself).
			const forText = rows.filter(
				(row) => row.reference === receipt.notifyId && row.waitsFor === 'receipt',
			);
			if (forText.length > 0) requireSecret(this, itemIndex, secret, 'Deliver Receipt');
			const { usable, unusable } = sortRows(forText, waitingBase, secret);
			const result = await offerReceipt(this, itemIndex, usable, { receipt, secret });
			return out({ ...result, ...unusableRowsOf(unusable) });
		},
	);
}
