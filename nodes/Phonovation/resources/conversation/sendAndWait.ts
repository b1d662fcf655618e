import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

import { parseCountryCode } from '../../domain/rules';
import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { ApprovalReader } from '../../../shared/approvalWords';
import { fitsQuestionRef, questionRef } from '../../../shared/questionRef';
import { asText } from '../../../shared/values';
import { runCampaigns } from '../campaign/pipeline/run';
import { approvalWordsOf, type ConversationOptions } from './answers';
import { QUESTION_PARAMETERS, sendAndWaitDescription } from './fields';

export const description = sendAndWaitDescription;

/** A sender a reply can come back to: a numeric longcode (an alphanumeric sender cannot be answered). */
const LONGCODE = /^\+?\d{5,16}$/;
/** The longest wait n8n can be asked for here: a year, in minutes. */
const MAX_WAIT_MINUTES = 525_600;

function notAsked(ctx: IExecuteFunctions, message: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, {
		itemIndex: 0,
		description: 'Nothing was sent.',
	});
}

/** The question's number, checked before anything is sent. */
function questionedNumber(ctx: IExecuteFunctions, options: ConversationOptions): string {
	const country = parseCountryCode(options.defaultCountryCode);
	if (!country.ok) throw notAsked(ctx, `Default Country Code ${country.problem}`);
	const to = asText(ctx.getNodeParameter(QUESTION_PARAMETERS.recipients, 0, '')).trim();
	const number = normaliseMsisdn(to, country.code);
	if (!number.ok) throw notAsked(ctx, `To: "${to}" is not a phone number: ${number.reason}`);
	return number.msisdn;
}

/** Limit Wait Time as a moment: never (0), or minutes from now; anything else is a mistake. */
function waitTillOf(ctx: IExecuteFunctions, options: ConversationOptions, askedAt: Date): Date {
	const minutes = Number(options.limitWaitTime ?? 0);
	if (!Number.isFinite(minutes) || minutes < 0 || minutes > MAX_WAIT_MINUTES) {
		throw notAsked(
			ctx,
			`Limit Wait Time: must be a number of minutes from 0 (no limit) to ${MAX_WAIT_MINUTES}, got "${asText(options.limitWaitTime)}"`,
		);
	}
	return minutes > 0 ? new Date(askedAt.getTime() + minutes * 60_000) : WAIT_INDEFINITELY;
}

/**
 * An execution Retry runs this node in a new execution, whose resume URL the steps before it (run
 * from the failed one's data) never recorded: no reply could reach it. The node's context, which a
 * Retry carries over, says which execution asked first.
 */
function refuseRetriedExecution(ctx: IExecuteFunctions, executionId: string): void {
	const context = ctx.getContext('node');
	const first = context.askingExecution as string | undefined;
	if (first !== undefined && first !== executionId) {
		throw notAsked(
			ctx,
			`Send and Wait for Reply cannot be retried as a new execution (this is ${executionId}, the question belongs to ${first}): its resume URL was never recorded, so no answer could reach it. Run the workflow again instead`,
		);
	}
	context.askingExecution = executionId;
}

/**
 * Texts one question to one number, then puts the execution to wait until Deliver Reply brings
 * the answer (see receiveReply.ts) or Limit Wait Time passes. n8n resumes one waiting node per
 * execution, so one item is asked. Every mistake is caught before the question is texted.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (items.length !== 1) {
		throw notAsked(
			this,
			`Send and Wait for Reply asks one question per execution, and ${items.length} items came in: call a sub-workflow once per item (Execute Workflow, Mode: Run once for each item)`,
		);
	}
	const options = this.getNodeParameter('options', 0, {}) as ConversationOptions;
	const from = asText(this.getNodeParameter(QUESTION_PARAMETERS.from, 0, '')).trim();
	if (!LONGCODE.test(from))
		throw notAsked(
			this,
			`Sender: "${from}" cannot receive replies; choose a numeric longcode of your account`,
		);
	const msisdn = questionedNumber(this, options);
	if (this.getNodeParameter('responseType', 0, 'approval') === 'approval') {
		try {
			new ApprovalReader(approvalWordsOf(options));
		} catch (error) {
			throw notAsked(this, `Yes Words / No Words: ${(error as Error).message}`);
		}
	}
	const askedAt = new Date();
	const waitTill = waitTillOf(this, options, askedAt);
	const credentials = await this.getCredentials('phonovationApi');
	const secret = asText(credentials.relaySecret);
	if (secret === '')
		throw notAsked(
			this,
			'Credential: set a Relay Secret; it proves that the answer came from the number asked',
		);
	const executionId = this.getExecutionId();
	if (!fitsQuestionRef(executionId))
		throw notAsked(
			this,
			`This execution's id "${executionId}" is too long for a Notify ID the reply can carry`,
		);
	refuseRetriedExecution(this, executionId);
	const notifyId = questionRef({ executionId, nodeId: this.getNode().id, msisdn }, secret)!;

	// The campaign pipeline sends it: sender check, Exclude Numbers, retry record, unknown outcomes.
	const [sent] = await runCampaigns(this, items, 'send', {
		...QUESTION_PARAMETERS,
		fixed: { notifyId, messageType: 'transactional' },
	});
	if (sent.json.error !== undefined) return [sent];
	if (sent.json.status !== 'accepted') {
		// Excluded, refused by the provider…: nobody was asked, so there is nothing to wait for.
		const why = `${asText(sent.json.status)}${sent.json.reason ? `: ${asText(sent.json.reason)}` : ''}`;
		const error = new NodeOperationError(this.getNode(), `Nothing was asked: ${msisdn} is ${why}`, {
			itemIndex: 0,
		});
		if (!this.continueOnFail()) throw error;
		return [
			{
				json: { error: error.message, details: sent.json as IDataObject },
				pairedItem: { item: 0 },
			},
		];
	}

	// n8n passes the paused item on unchanged when the limit passes: it says so. The answer's
	// webhook reads `to`, `askedAt` and `notifyId` back from it (hidden parameters).
	items[0].json = {
		...items[0].json,
		timedOut: true,
		approved: null,
		text: null,
		to: msisdn,
		askedAt: askedAt.toISOString(),
		notifyId,
		sent: sent.json,
	};
	await this.putExecutionToWait(waitTill);
	return items;
}
