// A reply delivered to a waiting Send and Wait for Reply: proven, matched to the question, read as its answer.
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { normaliseMsisdn } from '../../../domain/phoneNumbers';
import { DEFAULT_COUNTRY_CODE, parseCountryCode } from '../../../domain/rules';
import { asText } from '../../../../shared/values';
import { QUESTION_PARAMETERS } from '../fields';
import { readNumber } from '../numbers';
import { questionOf } from '../proof/questionRef';
import { type DeliveredReply, provenReply } from '../proof/replyProof';
import { approvalWordsOf, type ConversationOptions, wantsAnswerCode } from './answers';
import { answerCodeOf, withoutCode } from './answerCodes';
import { ApprovalReader } from './approvalWords';
import { readPaused, type Resumption, secondsSince, stillWaiting } from './paused';

/** The Re-Prompt Text for a reply that is no answer (the inbox texts it back), if the user set one. */
const repromptOf = (options: ConversationOptions) =>
	typeof options.repromptText === 'string' ? options.repromptText.trim() : '';

type AskedQuestion = ReturnType<typeof askedQuestion>;

/** What an Approval reply was, for a Switch on `answer` (with "timedOut" after Limit Wait Time). */
const ANSWERS: Record<string, string> = { true: 'yes', false: 'no', null: 'other' };

/** The number typed in To, for a paused item without the number asked. */
function typedNumber(ctx: IWebhookFunctions, countryCode: string): string | null {
	const typed = asText(ctx.getNodeParameter(QUESTION_PARAMETERS.recipients, ''));
	const to = normaliseMsisdn(typed, countryCode);
	return to.ok ? to.msisdn : null;
}

/** What the paused item says of its question (sendAndWait.ts wrote it). */
function askedQuestion(ctx: IWebhookFunctions, countryCode: string) {
	const { state } = readPaused(ctx, 'reply');
	return {
		msisdn: state.to ? readNumber(state.to, countryCode) : typedNumber(ctx, countryCode),
		askedAt: Date.parse(state.at),
		notifyId: state.notifyId,
	};
}

/** Why this reply does not answer this question, or null when it does. */
function mismatch(
	ctx: IWebhookFunctions,
	reply: DeliveredReply,
	asked: AskedQuestion,
	{ secret, countryCode, byCode }: { secret: string; countryCode: string; byCode: boolean },
): string | null {
	if (!asked.msisdn || readNumber(reply.from, countryCode) !== asked.msisdn)
		return 'the reply is from another number';
	const executionId = ctx.getExecutionId();
	// A reply carrying this question's code names it, whatever it is linked to: the provider links
	// a reply to the last text to the number, another question of the same reviewer, say.
	if (reply.notifyId && reply.notifyId !== asked.notifyId && !byCode) {
		// Linked to another question: of this run (another node), or of this node asked another
		// time. A reply linked to anything else (a reminder sent after the question) still answers.
		const otherOfThisRun = reply.notifyId.startsWith(`${executionId}.`);
		const another = questionOf(
			reply.notifyId,
			{ nodeId: ctx.getNode().id, msisdn: asked.msisdn },
			secret,
		);
		if (otherOfThisRun || another !== null) return 'the reply answers another question';
	}
	// The provider signs a reply's number and text only: a reply without its time could be a
	// captured answer sent again.
	const receivedAt = reply.receivedAt === null ? NaN : Date.parse(reply.receivedAt);
	if (Number.isNaN(receivedAt)) return 'the reply has no time it was received (SMS-TimeStamp)';
	if (!Number.isNaN(asked.askedAt) && receivedAt < asked.askedAt - CLOCK_SKEW_MS) {
		return 'the reply was sent before the question was asked';
	}
	return null;
}

/**
 * How much earlier than the question a reply's time stamp may be and still answer it: the
 * provider's clock against n8n's, and the stamp's whole seconds. A genuine answer comes after the
 * text reached the handset; a relay stamped before the question is an answer to something else.
 */
export const CLOCK_SKEW_MS = 10_000;

/**
 * Reads the reply as this question's answer into the item (`approved`, `answer`), or answers the
 * caller why it is none and returns that: without the question's code when it uses one (an
 * opt-out too: the provider signs only a reply's number and text, so a captured STOP or answer
 * could be sent again later), or not an approval word when other replies keep it waiting.
 */
function readAnswer(
	ctx: IWebhookFunctions,
	{
		reply,
		item,
		options,
	}: { reply: DeliveredReply; item: IDataObject; options: ConversationOptions },
	code: string,
): Resumption | null {
	let answer: string | null = reply.text;
	if (wantsAnswerCode(options, ctx.getNode().type)) {
		answer = withoutCode(reply.text, code);
		if (answer === null && reply.optedOut)
			return stillWaiting(202, "an opt-out without the question's code is no answer to it");
		if (answer === null)
			return stillWaiting(
				202,
				"not an answer: it does not carry the question's code",
				repromptOf(options),
			);
	}
	if (ctx.getNodeParameter('responseType', 'approval') === 'approval') {
		const approved = reply.optedOut
			? false
			: new ApprovalReader(approvalWordsOf(options)).read(answer ?? '');
		if (approved === null && options.otherReplies !== 'goOn')
			return stillWaiting(202, 'not an answer: still waiting', repromptOf(options));
		item.approved = approved;
		item.answer = reply.optedOut ? 'optedOut' : ANSWERS[String(approved)];
	} else {
		item.answer = reply.optedOut ? 'optedOut' : 'reply';
	}
	return null;
}

/**
 * A reply delivered to this waiting node's own resume URL (resume.ts). It resumes only with a proof
 * keyed by the Relay Secret for this execution, from the number asked, not linked to another
 * question, with its time and not older than it; anything else leaves the run waiting.
 */
export function receiveReply(ctx: IWebhookFunctions, secret: string): Resumption {
	const options = ctx.getNodeParameter('options', {}) as ConversationOptions;
	const country = parseCountryCode(options.defaultCountryCode);
	const countryCode = country.ok ? country.code : DEFAULT_COUNTRY_CODE;
	const asked = askedQuestion(ctx, countryCode);
	const target = { executionId: ctx.getExecutionId(), reference: asked.notifyId };
	const reply = provenReply(ctx.getBodyData(), target, secret);
	if (!reply) return stillWaiting(401, 'no valid proof');
	const code = answerCodeOf(asked.notifyId, secret);
	const byCode =
		wantsAnswerCode(options, ctx.getNode().type) && withoutCode(reply.text, code) !== null;
	const why = mismatch(ctx, reply, asked, { secret, countryCode, byCode });
	if (why) return stillWaiting(409, why);
	const item: IDataObject = {
		from: reply.from,
		text: reply.text,
		receivedAt: reply.receivedAt,
		optedOut: reply.optedOut,
		timedOut: false,
	};
	const refusal = readAnswer(ctx, { reply, item, options }, code);
	if (refusal) return refusal;
	item.waitedSeconds = secondsSince(asked.askedAt);
	return { resumed: true, answer: item.answer, outputs: [[{ json: item }]] };
}
