import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

import { ApprovalReader } from '../../../shared/approvalWords';
import { asText } from '../../../shared/values';
import {
	answerCodeOf,
	approvalWordsOf,
	codeLine,
	type ConversationOptions,
	wantsAnswerCode,
} from './answers';
import { DEFAULT_WAIT_MINUTES, QUESTION_PARAMETERS, sendAndWaitDescription } from './fields';
import { recordQuestion } from './questionLog';
import { recordedResumeUrl } from './retryBinding';
import {
	beginRun,
	notSent as notAsked,
	numberToText,
	relaySecretFor,
	textOfThisRun,
	textOnce,
	waitTillOf,
} from './textOnce';

export const description = sendAndWaitDescription;

/** A sender a reply can come back to: a numeric longcode (an alphanumeric sender cannot be answered). */
const LONGCODE = /^\+?\d{5,16}$/;
/** The characters of an AI Agent review message kept before its answer code. */
const REVIEW_TEXT_LIMIT = 280;
/** The longest wait n8n can be asked for here: a year, in minutes. */
const WAIT_LIMITS = { min: 0, max: 525_600, fallback: DEFAULT_WAIT_MINUTES };

/**
 * Records one question in the Question Log, texts it to one number, then puts the execution to
 * wait until Deliver Reply brings the answer to this node's own resume URL (see receiveReply.ts)
 * or Limit Wait Time passes. n8n resumes one waiting node per execution, so one item is asked.
 * Every mistake is caught before the question is texted.
 */
// eslint-disable-next-line max-lines-per-function -- to split with the shared ask step (issue 44)
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	// First, so a run that stops on a mistake leaves its record: a Retry after the fix sends.
	const ask = beginRun(this);
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
	const msisdn = numberToText(this, options.defaultCountryCode);
	if (this.getNodeParameter('responseType', 0, 'approval') === 'approval') {
		try {
			new ApprovalReader(approvalWordsOf(options));
		} catch (error) {
			throw notAsked(this, `Yes Words / No Words: ${(error as Error).message}`);
		}
	}
	const now = new Date();
	const waitTill = waitTillOf(this, options.limitWaitTime, WAIT_LIMITS, now);
	const secret = await relaySecretFor(this, 'that the answer came from the number asked');
	const { notifyId, askedAt } = textOfThisRun(this, { ask, msisdn, at: now }, secret);
	// Recorded before it is texted: a question nobody could answer is never paid for.
	await recordQuestion(this, {
		reference: notifyId,
		phone: msisdn,
		resumeUrl: recordedResumeUrl(
			this.getSignedResumeUrl(),
			{ reference: notifyId, executionId: this.getExecutionId(), nodeId: this.getNode().id },
			secret,
		),
		askedAt,
		expiresAt: waitTill === WAIT_INDEFINITELY ? '' : waitTill.toISOString(),
	});

	// The campaign pipeline sends it: sender check, Exclude Numbers, retry record, unknown outcomes.
	const responseType = this.getNodeParameter('responseType', 0, 'approval') as string;
	const code = wantsAnswerCode(options, type) ? answerCodeOf(notifyId, secret) : null;
	const outcome = await textOnce(
		this,
		items,
		{ ask, msisdn, notifyId },
		{
			textEnding: code === null ? undefined : codeLine(code, responseType),
			// n8n's review message holds the tool's whole input: a reviewer reads the start, in 2 parts.
			textLimit: type.endsWith('HitlTool') ? REVIEW_TEXT_LIMIT : undefined,
		},
	);
	if (outcome.kind === 'error') return [outcome.item];
	if (outcome.kind === 'notSent') {
		// Excluded, refused by the provider…: nobody was asked, so there is nothing to wait for.
		const { report } = outcome;
		const why = `${asText(report.status)}${report.reason ? `: ${asText(report.reason)}` : ''}`;
		const error = new NodeOperationError(this.getNode(), `Nothing was asked: ${msisdn} is ${why}`, {
			itemIndex: 0,
		});
		if (!this.continueOnFail()) throw error;
		return [
			{
				json: { error: error.message, details: report },
				pairedItem: { item: 0 },
			},
		];
	}
	const sent = outcome.report;

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
		sent,
	};
	await this.putExecutionToWait(waitTill);
	return items;
}
