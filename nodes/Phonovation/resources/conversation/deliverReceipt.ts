// Deliver Receipt: its fields, and its run: a verified receipt handed to the run waiting for its text.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asText, countOrNull, textOrNull } from '../../../shared/values';
import { deliverOperation, type Handed, triggerItemField } from './deliverEach';
import { operationFields } from './fields';
import { readNumber } from './numbers';
import type { ProofTarget } from './proof/proof';
import { isQuestionRefShaped } from './proof/questionRef';
import { type DeliveredReceipt, receiptProof } from './proof/receiptProof';
import { findQuestions, type LoggedQuestion, questionLogField } from './questionLog';
import { type Offer, offerInTurn, sortRows, unusableRowsOf } from './waitingRuns';
import type { Listing } from '../../resourceFields';

export const description = operationFields('deliverReceipt', [
	questionLogField,
	triggerItemField(
		'Receipt',
		"The Phonovation Trigger's Delivery Receipt item (or a Processing Result item that refuses a number). An unverified one is never delivered.",
	),
]);

/**
 * Pauses between tries while n8n cannot take the receipt yet: a receipt can come before the run
 * that sent the text has paused (n8n answers 409 while it runs), so it is offered for about 15 s.
 */
const RETRY = {
	pausesMs: [1_000, 2_000, 4_000, 8_000],
	failure: 'The waiting run could not take the receipt',
};

type Read = { receipt: DeliveredReceipt; to: string | null } | { skip: string };

/** The receipt a trigger item reports, or why it changes nothing. */
function readReceipt(item: IDataObject): Read {
	const notifyId = textOrNull(item.notifyId);
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
				reason: textOrNull(item.message) ?? 'the provider could not process the text',
				parts: { toSend: null, sent: null, failed: null },
				receivedAt: textOrNull(item.finishedAt),
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
			receivedAt: textOrNull(unverified.receivedAt),
		},
		to: textOrNull(unverified.to),
	};
}

/** Posts the receipt to each usable row in turn (the live one answers for itself); what became of it. */
async function offerReceipt(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rows: Array<Offer<LoggedQuestion>>,
	signed: { receipt: DeliveredReceipt; secret: string },
): Promise<IDataObject> {
	const { receipt, secret } = signed;
	const prove = (about: ProofTarget) => receiptProof(about, receipt, secret);
	const answers = await offerInTurn(ctx, itemIndex, rows, { fields: receipt, prove, retry: RETRY });
	const last = answers.at(-1);
	if (last?.posted.state === 'resumed')
		return { resumed: true, delivery: receipt.outcome, text: last.about };
	// This run may have taken it: no other row was tried.
	if (last?.posted.state === 'unconfirmed')
		return { resumed: false, unconfirmed: true, reason: last.posted.reason, text: last.about };
	const [first] = answers;
	if (!first) return { resumed: false, reason: 'no run is waiting for this text' };
	const reason =
		first.posted.state === 'refused'
			? first.posted.reason
			: 'no run is waiting for this text any more';
	return { resumed: false, reason, text: first.about };
}

/** One trigger item's receipt, offered to the run waiting for its text; the item says what became of it. */
async function deliverReceipt(
	ctx: IExecuteFunctions,
	{ itemIndex, item, out, secret, requireSecret, waitingBase }: Handed,
): Promise<INodeExecutionData[]> {
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
	const to = read.to === null ? '' : (readNumber(read.to) ?? '');
	const rows = await findQuestions(ctx, itemIndex, to, { reference: receipt.notifyId });
	// Every row for this text, in case a log kept more than one (the live one answers for itself).
	const forText = rows.filter(
		(row) => row.reference === receipt.notifyId && row.waitsFor === 'receipt',
	);
	if (forText.length > 0) requireSecret();
	const { usable, unusable } = sortRows(forText, waitingBase, secret);
	const result = await offerReceipt(ctx, itemIndex, usable, { receipt, secret });
	return out({ ...result, ...unusableRowsOf(unusable) });
}

/**
 * Finds the run waiting for the text a verified receipt reports on (by its Notify ID, which the
 * provider signs) in the Question Log, and posts the receipt, with its proof, to that run's resume
 * URL (rebuilt by the resume URL rule; rows it refuses are listed as `unusableRows`). The item
 * goes on with `resumed` and, when it is false, why (no run waits for that text, it was already
 * resumed, the receipt is not final…); `unconfirmed: true` when a run may have taken it unseen.
 */
export const execute = deliverOperation(
	{
		label: 'Receipt',
		notATool: 'only a verified receipt may resume a run',
		events: { deliveryReceipt: 'Delivery Receipt', processingResult: 'Processing Result' },
	},
	deliverReceipt,
);

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Deliver Receipt',
	'Hand a verified delivery receipt to the run waiting for it',
	'Deliver a receipt to a waiting run',
	'docs/conversations.md#deliver-receipt',
];
