import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { DEFAULT_COUNTRY_CODE } from '../../domain/rules';
import { asText } from '../../../shared/values';
import { deliverReplyDescription } from './fields';
import { findQuestions, type LoggedQuestion } from './questionLog';
import { asInternational, type DeliveredReply, relayMark, replyProof } from './replyProof';
import type { ResumeTarget } from './resumeUrl';
import { earlierDeliveries, markSettled } from './settledRelays';
import {
	deliverEach,
	postToWaitingRun,
	requireSecret,
	sortRows,
	type UnusableRow,
	unusableRowsOf,
} from './waitingRuns';

export const description = deliverReplyDescription;

/** Pauses between tries when n8n cannot take the reply yet (still running) or fails (5xx, no answer). */
const RETRY = {
	pausesMs: [1_000, 2_000],
	failure: 'The asking run could not take the reply',
};

const orNull = (value: unknown) =>
	value === null || value === undefined || value === '' ? null : asText(value);

/**
 * The questions a reply may answer, in the order to try them: the question it is linked to first
 * (the provider links a reply to the last text to the number), then the number's other open
 * questions, newest first (a reply not linked, or linked to a reminder sent after the question).
 */
export function candidatesFor(
	questions: LoggedQuestion[],
	msisdn: string,
	linkedTo: string | null,
	now: number,
): LoggedQuestion[] {
	const mine = questions.filter((q) => q.phone === msisdn);
	const open = mine
		.filter((q) => q.reference !== linkedTo && (!q.expiresAt || !(Date.parse(q.expiresAt) <= now)))
		.sort((a, b) => Date.parse(b.askedAt) - Date.parse(a.askedAt) || 0);
	return [...mine.filter((q) => q.reference === linkedTo).slice(-1), ...open];
}

/**
 * The questions a reply is offered to, in order, each with the target the resume URL rule rebuilt,
 * and the rows the rule refused. Refused rows are set aside first: a forged row never hides the
 * genuine one it copies. A run waiting for a delivery receipt takes no reply.
 */
function offersFor(
	questions: LoggedQuestion[],
	msisdn: string,
	linkedTo: string | null,
	{ waitingBase, secret }: { waitingBase: string; secret: string },
): { offers: Array<{ row: LoggedQuestion; target: ResumeTarget }>; unusable: UnusableRow[] } {
	const forReplies = questions.filter((q) => q.waitsFor !== 'receipt');
	const { usable, unusable } = sortRows(forReplies, waitingBase, secret);
	const targets = new Map(usable.map(({ row, target }) => [row, target]));
	const candidates = candidatesFor([...targets.keys()], msisdn, linkedTo, Date.now());
	return { offers: candidates.map((row) => ({ row, target: targets.get(row)! })), unusable };
}

type Offer = { row: LoggedQuestion; target: ResumeTarget };

/** Offers the reply to each usable candidate in turn; what became of it, for the item. */
async function offerReply(
	ctx: IExecuteFunctions,
	itemIndex: number,
	candidates: Offer[],
	signed: { reply: DeliveredReply; secret: string },
): Promise<IDataObject> {
	const { reply, secret } = signed;
	// The first waiting question that reads it as its answer takes it; a refusal (not an answer,
	// no code) is reported when no other question takes it.
	let refusal: IDataObject | undefined;
	for (const { row, target } of candidates) {
		const { executionId } = target;
		const proof = replyProof({ executionId, reference: row.reference }, reply, secret);
		const body = { ...reply, proof };
		const posted = await postToWaitingRun(ctx, itemIndex, { target, body }, RETRY);
		const question = { reference: row.reference, executionId };
		if (posted.state === 'resumed')
			return { resumed: true, answer: posted.answer ?? null, question };
		// This run may have taken it as its answer: offered to another question, it could answer two.
		if (posted.state === 'unconfirmed')
			return { resumed: false, unconfirmed: true, reason: posted.reason, question };
		if (posted.state === 'refused')
			refusal ??= {
				resumed: false,
				reason: posted.reason,
				question,
				...(posted.reprompt ? { reprompt: posted.reprompt } : {}),
			};
	}
	if (refusal) return refusal;
	return {
		resumed: false,
		reason: candidates.length
			? 'no question to this number is waiting any more'
			: 'no question to this number is waiting',
	};
}

/**
 * The reply offered as earlier deliveries of the same relay allow: not at all once it answered a
 * question (a replay, a retried inbox), only to the question it may have answered when that
 * delivery's outcome was unknown, else to every candidate in turn.
 */
async function offerOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ offers, questions, mark }: { offers: Offer[]; questions: LoggedQuestion[]; mark: string },
	signed: { reply: DeliveredReply; secret: string },
): Promise<IDataObject> {
	const { answered, mayHaveAnswered } = earlierDeliveries(questions, mark);
	if (answered)
		return {
			resumed: false,
			alreadyAnswered: true,
			reason: 'this relay already answered a question',
			question: { reference: answered.reference },
		};
	if (!mayHaveAnswered) return await offerReply(ctx, itemIndex, offers, signed);
	const { reference } = mayHaveAnswered;
	const same = offers.filter(({ row }) => row.reference === reference);
	const again = same.length > 0 ? await offerReply(ctx, itemIndex, same, signed) : undefined;
	if (again?.resumed === true || again?.unconfirmed === true) return again;
	return {
		resumed: false,
		unconfirmed: true,
		reason: `an earlier delivery of this relay may have answered its question (now: ${String(again?.reason ?? 'not in the log')}): it goes to no other`,
		question: { reference },
	};
}

/**
 * Finds the question a verified reply answers in the Question Log and posts the reply, with its
 * proof, to that question's resume URL (rebuilt by the resume URL rule; rows it refuses are listed
 * as `unusableRows`). The item goes on with `resumed` and, when it is false, the reason (no
 * question waiting, another number, not an answer yet…), so the reply can then be routed as an
 * ordinary inbound message; `unconfirmed: true` when a run may have taken it unseen;
 * `alreadyAnswered: true` when this very relay settled a question before (the log marks each).
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const handing = {
		operation: 'Deliver Reply',
		notATool: 'only a verified reply may answer a question',
		parameter: 'reply',
		label: 'Reply',
		events: { inbound: 'Inbound Message', optOut: 'Opt-Out' },
		triggerName: 'On Reply',
	};
	return await deliverEach(
		this,
		items,
		handing,
		async ({ itemIndex, item, out, secret, waitingBase }) => {
			if (item.verified !== true)
				return out({
					resumed: false,
					reason: 'the reply was not verified by the Phonovation Trigger',
				});
			const unverified = (item.unverified ?? {}) as IDataObject;
			const reply: DeliveredReply = {
				from: asText(item.from),
				text: asText(item.text),
				receivedAt: orNull(unverified.receivedAt),
				optedOut: item.event === 'optOut',
				notifyId: orNull(unverified.notifyId),
			};
			const from = normaliseMsisdn(asInternational(reply.from), DEFAULT_COUNTRY_CODE);
			if (!from.ok) return out({ resumed: false, reason: 'the reply has no number to match' });
			const questions = await findQuestions(this, itemIndex, from.msisdn, reply.notifyId);
			if (questions.length > 0) requireSecret(this, itemIndex, secret, 'Deliver Reply');
			const { offers, unusable } = offersFor(questions, from.msisdn, reply.notifyId, {
				waitingBase,
				secret,
			});
			const mark = relayMark(reply, secret);
			const result = await offerOnce(
				this,
				itemIndex,
				{ offers, questions, mark },
				{ reply, secret },
			);
			const marked = await markSettled(this, itemIndex, result, mark);
			return out({ ...result, ...marked, ...unusableRowsOf(unusable) });
		},
	);
}
