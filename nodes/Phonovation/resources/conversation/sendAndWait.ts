import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

import { parseCountryCode } from '../../domain/rules';
import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { ApprovalReader } from '../../../shared/approvalWords';
import { questionRef } from '../../../shared/questionRef';
import { asText } from '../../../shared/values';
import { Ledger } from '../campaign/pipeline/ledger';
import { runCampaigns } from '../campaign/pipeline/run';
import { asNodeError } from '../../eachItem';
import {
	answerCodeOf,
	approvalWordsOf,
	codeLine,
	type ConversationOptions,
	wantsAnswerCode,
} from './answers';
import { DEFAULT_WAIT_MINUTES, QUESTION_PARAMETERS, sendAndWaitDescription } from './fields';
import { recordQuestion } from './questionLog';

export const description = sendAndWaitDescription;

/** A sender a reply can come back to: a numeric longcode (an alphanumeric sender cannot be answered). */
const LONGCODE = /^\+?\d{5,16}$/;
/** The characters of an AI Agent review message kept before its answer code. */
const REVIEW_TEXT_LIMIT = 280;
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
	const minutes = Number(options.limitWaitTime ?? DEFAULT_WAIT_MINUTES);
	if (!Number.isFinite(minutes) || minutes < 0 || minutes > MAX_WAIT_MINUTES) {
		throw notAsked(
			ctx,
			`Limit Wait Time: must be a number of minutes from 0 (no limit) to ${MAX_WAIT_MINUTES}, got "${asText(options.limitWaitTime)}"`,
		);
	}
	return minutes > 0 ? new Date(askedAt.getTime() + minutes * 60_000) : WAIT_INDEFINITELY;
}

/** A question this node's run has already asked (or begun to): what it was texted with, and when. */
interface AskedBefore {
	notifyId: string;
	askedAt: string;
}

/**
 * The question of this run of the node, the same on every attempt. Retry On Fail and an
 * execution Retry (which carries the node's context over) find the one an earlier attempt began
 * with, so the retry record sees the same text to the same number, never texts it again, and the
 * log row is pointed at this execution's resume URL instead.
 */
function questionOfThisRun(
	ctx: IExecuteFunctions,
	ask: number,
	msisdn: string,
	secret: string,
	askedAt: Date,
): AskedBefore {
	const runs = (ctx.getContext('node').phonovationQuestions ??= {}) as Record<string, AskedBefore>;
	const earlier = runs[ask];
	if (earlier) return earlier;
	const executionId = ctx.getExecutionId();
	const notifyId = questionRef({ executionId, nodeId: ctx.getNode().id, msisdn, ask }, secret);
	if (notifyId === undefined)
		throw notAsked(
			ctx,
			`This execution's id "${executionId}" is too long for a Notify ID the reply can carry`,
		);
	return (runs[ask] = { notifyId, askedAt: askedAt.toISOString() });
}

/**
 * Records one question in the Question Log, texts it to one number, then puts the execution to
 * wait until Deliver Reply brings the answer to this node's own resume URL (see receiveReply.ts)
 * or Limit Wait Time passes. n8n resumes one waiting node per execution, so one item is asked.
 * Every mistake is caught before the question is texted.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const type = this.getNode().type;
	if (type.endsWith('Tool') && !type.endsWith('HitlTool')) {
		throw notAsked(
			this,
			"Send and Wait for Reply cannot be an AI Agent's tool: use it as the agent's human review, or in a workflow",
		);
	}
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
	const now = new Date();
	const waitTill = waitTillOf(this, options, now);
	const credentials = await this.getCredentials('phonovationApi');
	const secret = asText(credentials.relaySecret);
	if (secret === '')
		throw notAsked(
			this,
			'Credential: set a Relay Secret; it proves that the answer came from the number asked',
		);
	/** This run of the node in the execution: the question's, and its retry record's. */
	const ask = this.getWorkflowDataProxy(0).$runIndex;
	const { notifyId, askedAt } = questionOfThisRun(this, ask, msisdn, secret, now);
	// Recorded before it is texted: a question nobody could answer is never paid for.
	await recordQuestion(this, {
		reference: notifyId,
		phone: msisdn,
		resumeUrl: this.getSignedResumeUrl(),
		askedAt,
		expiresAt: waitTill === WAIT_INDEFINITELY ? '' : waitTill.toISOString(),
	});

	// The campaign pipeline sends it: sender check, Exclude Numbers, retry record, unknown outcomes.
	const code =
		this.getNodeParameter('responseType', 0, 'approval') === 'approval' &&
		wantsAnswerCode(options, type)
			? answerCodeOf(notifyId, secret)
			: null;
	const texting = runCampaigns(this, items, 'send', {
		...QUESTION_PARAMETERS,
		textEnding: code === null ? undefined : codeLine(code),
		// n8n's review message holds the tool's whole input: a reviewer reads the start, in 2 parts.
		textLimit: type.endsWith('HitlTool') ? REVIEW_TEXT_LIMIT : undefined,
		fixed: { notifyId, messageType: 'transactional' },
	});
	// A question that may have gone out (the request may have been processed) is never texted
	// again, and the person may have it: the run waits for their answer instead of failing.
	const unconfirmed = () => {
		const record = new Ledger(this.getContext('node'), ask).recipient(
			Ledger.recipientKey(0, msisdn),
		);
		return record?.state === 'unconfirmed'
			? { json: { status: 'unconfirmed', reason: record.reason } }
			: null;
	};
	let sent: INodeExecutionData;
	try {
		[sent] = await texting;
	} catch (error) {
		const mayHaveGone = unconfirmed();
		if (!mayHaveGone) throw asNodeError(this, error, 0);
		sent = mayHaveGone;
	}
	if (sent.json.error !== undefined) sent = unconfirmed() ?? sent;
	if (sent.json.error !== undefined) return [sent];
	if (sent.json.status !== 'accepted' && sent.json.status !== 'unconfirmed') {
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
		answer: 'timedOut',
		to: msisdn,
		askedAt,
		notifyId,
		sent: sent.json,
	};
	await this.putExecutionToWait(waitTill);
	return items;
}
