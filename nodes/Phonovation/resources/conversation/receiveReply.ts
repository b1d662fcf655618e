import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { parseCountryCode } from '../../domain/rules';
import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { ApprovalReader, DEFAULT_NO_WORDS, DEFAULT_YES_WORDS, wordsOf } from '../../../shared/approvalWords';
import { askingExecution } from '../../../shared/questionRef';
import { asText } from '../../../shared/values';
import { provenReply } from './replyProof';

/** Answered to the caller (Deliver Reply); the run stays waiting unless `resumed`. */
function answer(ctx: IWebhookFunctions, status: number, json: IDataObject): IWebhookResponseData {
	ctx.getResponseObject().status(status).json(json);
	return { noWebhookResponse: true };
}

const optionsOf = (ctx: IWebhookFunctions) =>
	ctx.getNodeParameter('options', {}) as { defaultCountryCode?: unknown; yesWords?: unknown; noWords?: unknown; otherReplies?: unknown };

/**
 * A reply delivered to this waiting run. It resumes only with a proof keyed by the Relay Secret,
 * from the number that was asked, and (when the provider linked it) with this question's Notify
 * ID; anything else leaves the run waiting. Never throws: n8n would resume the run as failed.
 */
export async function receiveReply(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	try {
		const executionId = this.getExecutionId();
		const credentials = await this.getCredentials('phonovationApi');
		const secret = asText(credentials.relaySecret);
		const reply = provenReply(this.getBodyData(), executionId, secret);
		if (!reply) return answer(this, 401, { resumed: false, reason: 'no valid proof' });
		const options = optionsOf(this);
		const country = parseCountryCode(options.defaultCountryCode);
		const asked = normaliseMsisdn(asText(this.getNodeParameter('recipients', '')), country.ok ? country.code : '353');
		const from = normaliseMsisdn(reply.from, country.ok ? country.code : '353');
		if (!asked.ok || !from.ok || asked.msisdn !== from.msisdn) return answer(this, 409, { resumed: false, reason: 'the reply is from another number' });
		if (reply.notifyId && askingExecution(reply.notifyId, asked.msisdn, secret) !== null && askingExecution(reply.notifyId, asked.msisdn, secret) !== executionId) {
			return answer(this, 409, { resumed: false, reason: 'the reply answers another question' });
		}
		const item: IDataObject = { from: asked.msisdn, text: reply.text, receivedAt: reply.receivedAt, optedOut: reply.optedOut, timedOut: false };
		if (this.getNodeParameter('responseType', 'approval') === 'approval') {
			const reader = new ApprovalReader({ yes: wordsOf(options.yesWords, DEFAULT_YES_WORDS), no: wordsOf(options.noWords, DEFAULT_NO_WORDS) });
			const approved = reply.optedOut ? false : reader.read(reply.text);
			if (approved === null && options.otherReplies !== 'goOn') return answer(this, 202, { resumed: false, reason: 'not an answer: still waiting' });
			item.approved = approved;
		}
		const askedAt = Date.parse(asText(this.getNodeParameter('askedAt', '')));
		item.waitedSeconds = Number.isNaN(askedAt) ? null : Math.max(0, Math.round((Date.now() - askedAt) / 1000));
		return { webhookResponse: { resumed: true }, workflowData: [[{ json: item }]] };
	} catch (error) {
		return answer(this, 400, { resumed: false, reason: (error as Error).message });
	}
}
