import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { DEFAULT_COUNTRY_CODE } from '../../domain/rules';
import { asText } from '../../../shared/values';
import { deliverReplyDescription } from './fields';
import { findQuestions, type LoggedQuestion } from './questionLog';
import { asInternational, type DeliveredReply, replyProof, resumeTarget } from './replyProof';
import { deliverEach, isOurResumeUrl, postToWaitingRun } from './waitingRuns';

export const description = deliverReplyDescription;

/** Pauses between tries when n8n cannot take the reply yet (still running) or fails (5xx, no answer). */
const PAUSES_MS = [1_000, 2_000];

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

async function postWithRetries(
	ctx: IExecuteFunctions,
	itemIndex: number,
	question: LoggedQuestion,
	executionId: string,
	reply: DeliveredReply,
	secret: string,
) {
	const proof = replyProof({ executionId, reference: question.reference }, reply, secret);
	return await postToWaitingRun(
		ctx,
		itemIndex,
		question.resumeUrl,
		{ ...reply, proof },
		{ pausesMs: PAUSES_MS, failure: 'The asking run could not take the reply' },
	);
}

/**
 * Finds the question a verified reply answers in the Question Log and posts the reply, with its
 * proof, to that question's resume URL. The item goes on with `resumed` and, when it is false,
 * the reason (no question waiting, another number, not an answer yet…), so the reply can then be
 * routed as an ordinary inbound message.
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
			// A run waiting for a delivery receipt takes no reply.
			const ours = questions.filter(
				(q) => q.waitsFor !== 'receipt' && isOurResumeUrl(q.resumeUrl, waitingBase),
			);
			const candidates = candidatesFor(ours, from.msisdn, reply.notifyId, Date.now());
			// The first waiting question that reads it as its answer takes it; a refusal (not an answer,
			// no code) is reported when no other question takes it.
			let refusal: IDataObject | undefined;
			for (const question of candidates) {
				const { executionId } = resumeTarget(question.resumeUrl)!;
				const posted = await postWithRetries(this, itemIndex, question, executionId, reply, secret);
				const about = { reference: question.reference, executionId };
				if (posted.state === 'resumed')
					return out({ resumed: true, answer: posted.answer ?? null, question: about });
				if (posted.state === 'refused')
					refusal ??= {
						resumed: false,
						reason: posted.reason,
						question: about,
						...(posted.reprompt ? { reprompt: posted.reprompt } : {}),
					};
			}
			if (refusal) return out(refusal);
			return out({
				resumed: false,
				reason: candidates.length
					? 'no question to this number is waiting any more'
					: 'no question to this number is waiting',
			});
		},
	);
}
