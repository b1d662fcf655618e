import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { DEFAULT_COUNTRY_CODE, parseCountryCode } from '../../domain/rules';
import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { ApprovalReader } from '../../../shared/approvalWords';
import { questionOf } from '../../../shared/questionRef';
import { asText } from '../../../shared/values';
import {
	answerCodeOf,
	approvalWordsOf,
	type ConversationOptions,
	wantsAnswerCode,
	withoutCode,
} from './answers';
import { asInternational, type DeliveredReply, provenReply } from './replyProof';
import { QUESTION_PARAMETERS } from './fields';

/** Answered to the caller (Deliver Reply); the run stays waiting. */
function stillWaiting(
	ctx: IWebhookFunctions,
	status: number,
	reason: string,
	reprompt?: string,
): IWebhookResponseData {
	const body: IDataObject = { resumed: false, reason };
	if (reprompt) body.reprompt = reprompt;
	ctx.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/** The Re-Prompt Text for a reply that is no answer (the inbox texts it back), if the user set one. */
const repromptOf = (options: ConversationOptions) =>
	typeof options.repromptText === 'string' ? options.repromptText.trim() : '';

type AskedQuestion = ReturnType<typeof askedQuestion>;

/** What an Approval reply was, for a Switch on `answer` (with "timedOut" after Limit Wait Time). */
const ANSWERS: Record<string, string> = { true: 'yes', false: 'no', null: 'other' };

/** What the paused item says of its question (sendAndWait wrote it; hidden parameters read it back). */
function askedQuestion(ctx: IWebhookFunctions, countryCode: string) {
	const saved = asText(ctx.getNodeParameter('askedTo', ''));
	const to = saved
		? normaliseMsisdn(asInternational(saved), countryCode)
		: normaliseMsisdn(
				asText(ctx.getNodeParameter(QUESTION_PARAMETERS.recipients, '')),
				countryCode,
			);
	return {
		msisdn: to.ok ? to.msisdn : null,
		askedAt: Date.parse(asText(ctx.getNodeParameter('askedAt', ''))),
		notifyId: asText(ctx.getNodeParameter('askedNotifyId', '')),
	};
}

/** Why this reply does not answer this question, or null when it does. */
function mismatch(
	ctx: IWebhookFunctions,
	reply: DeliveredReply,
	asked: AskedQuestion,
	{ secret, countryCode }: { secret: string; countryCode: string },
): string | null {
	const from = normaliseMsisdn(asInternational(reply.from), countryCode);
	if (!asked.msisdn || !from.ok || from.msisdn !== asked.msisdn)
		return 'the reply is from another number';
	const executionId = ctx.getExecutionId();
	if (reply.notifyId && reply.notifyId !== asked.notifyId) {
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
): IWebhookResponseData | null {
	let answer: string | null = reply.text;
	if (wantsAnswerCode(options, ctx.getNode().type)) {
		answer = withoutCode(reply.text, code);
		if (answer === null && reply.optedOut)
			return stillWaiting(ctx, 202, "an opt-out without the question's code is no answer to it");
		if (answer === null)
			return stillWaiting(
				ctx,
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
			return stillWaiting(ctx, 202, 'not an answer: still waiting', repromptOf(options));
		item.approved = approved;
		item.answer = reply.optedOut ? 'optedOut' : ANSWERS[String(approved)];
	} else {
		item.answer = reply.optedOut ? 'optedOut' : 'reply';
	}
	return null;
}

/**
 * A reply delivered to this waiting node's own resume URL. It resumes only with a proof keyed by
 * the Relay Secret for this execution, from the number asked, not linked to another question, with
 * its time and not older than it; anything else leaves the run waiting. `resumed: true` in the
 * answer is the only success Deliver Reply counts. Never throws: n8n would resume the run as failed.
 */
export async function receiveReply(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	try {
		const credentials = await this.getCredentials('phonovationApi');
		const secret = asText(credentials.relaySecret);
		const options = this.getNodeParameter('options', {}) as ConversationOptions;
		const country = parseCountryCode(options.defaultCountryCode);
		const countryCode = country.ok ? country.code : DEFAULT_COUNTRY_CODE;
		const asked = askedQuestion(this, countryCode);
		const target = { executionId: this.getExecutionId(), reference: asked.notifyId };
		const reply = provenReply(this.getBodyData(), target, secret);
		if (!reply) return stillWaiting(this, 401, 'no valid proof');
		const why = mismatch(this, reply, asked, { secret, countryCode });
		if (why) return stillWaiting(this, 409, why);
		const item: IDataObject = {
			from: reply.from,
			text: reply.text,
			receivedAt: reply.receivedAt,
			optedOut: reply.optedOut,
			timedOut: false,
		};
		const refusal = readAnswer(
			this,
			{ reply, item, options },
			answerCodeOf(asked.notifyId, secret),
		);
		if (refusal) return refusal;
		item.waitedSeconds = Number.isNaN(asked.askedAt)
			? null
			: Math.max(0, Math.round((Date.now() - asked.askedAt) / 1000));
		// Answered here: for a waiting run n8n would send "firstEntryJson", not webhookResponse.
		this.getResponseObject().status(200).json({ resumed: true, answer: item.answer });
		return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
	} catch (error) {
		return stillWaiting(this, 400, (error as Error).message);
	}
}
