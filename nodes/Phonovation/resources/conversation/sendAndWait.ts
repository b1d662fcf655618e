import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

import { parseCountryCode } from '../../domain/rules';
import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { questionRef } from '../../../shared/questionRef';
import { asText } from '../../../shared/values';
import { runCampaigns } from '../campaign/pipeline/run';
import { sendAndWaitDescription } from './fields';

export const description = sendAndWaitDescription;

/** A sender a reply can come back to: a numeric longcode (an alphanumeric sender cannot be answered). */
const LONGCODE = /^\d{5,16}$/;

function stop(ctx: IExecuteFunctions, message: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex: 0, description: 'Nothing was sent.' });
}

/** The question's number, checked before anything is sent. */
function questionedNumber(ctx: IExecuteFunctions): string {
	const options = ctx.getNodeParameter('options', 0, {}) as { defaultCountryCode?: unknown };
	const country = parseCountryCode(options.defaultCountryCode);
	if (!country.ok) throw stop(ctx, `Default Country Code: ${country.violation.message}`);
	const to = asText(ctx.getNodeParameter('recipients', 0, '')).trim();
	const number = normaliseMsisdn(to, country.code);
	if (!number.ok) throw stop(ctx, `To: "${to}" is not a phone number: ${number.reason}`);
	return number.msisdn;
}

/**
 * Texts one question to one number, then puts the execution to wait until Deliver Reply brings
 * the answer (see receiveReply.ts) or Limit Wait Time passes. n8n resumes one waiting node per
 * execution, so one item is asked; the question's Notify ID names this execution and the number.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	if (items.length !== 1) {
		throw stop(
			this,
			`Send and Wait for Reply asks one question per execution, and ${items.length} items came in: call a sub-workflow once per item (Execute Workflow, Mode: Run once for each item)`,
		);
	}
	const from = asText(this.getNodeParameter('from', 0, '')).trim();
	if (!LONGCODE.test(from)) throw stop(this, `Sender: "${from}" cannot receive replies; choose a numeric longcode of your account`);
	const msisdn = questionedNumber(this);
	const credentials = await this.getCredentials('phonovationApi');
	const secret = asText(credentials.relaySecret);
	const notifyId = questionRef(this.getExecutionId(), msisdn, secret);
	if (!notifyId) throw stop(this, 'Credential: set a Relay Secret; it proves that the answer came from the number asked');

	// The campaign pipeline sends it: sender check, retry record, unknown outcomes and all.
	const [sent] = await runCampaigns(this, items, 'send', { notifyId, messageType: 'transactional' });
	if (sent.json.error !== undefined || sent.json.status !== 'accepted') return [sent];

	const limit = Number((this.getNodeParameter('options', 0, {}) as { limitWaitTime?: unknown }).limitWaitTime ?? 0);
	const askedAt = new Date();
	const waitTill = limit > 0 ? new Date(askedAt.getTime() + limit * 60_000) : WAIT_INDEFINITELY;
	// n8n passes the input item on unchanged when the limit passes: it says so, and keeps the
	// item's own fields, which the parameters' expressions read again when the answer comes.
	items[0].json = { ...items[0].json, timedOut: true, approved: null, text: null, to: msisdn, askedAt: askedAt.toISOString(), notifyId };
	await this.putExecutionToWait(waitTill);
	return items;
}
