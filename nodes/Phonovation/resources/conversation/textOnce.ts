import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

import { normaliseMsisdn } from '../../domain/phoneNumbers';
import { parseCountryCode } from '../../domain/rules';
import { asNodeError } from '../../eachItem';
import { refuseBlindRetry } from '../../retriedBlind';
import { questionOf, questionRef } from '../../../shared/questionRef';
import { asText } from '../../../shared/values';
import { Ledger } from '../campaign/pipeline/ledger';
import { runCampaigns } from '../campaign/pipeline/run';
import type { CampaignParameters } from '../campaign/pipeline/readParameters';
import { QUESTION_PARAMETERS } from './fields';

/**
 * What Send and Wait for Reply and Send and Wait for Delivery share: one text to one number,
 * checked before anything is sent, with a Notify ID of its own that every attempt keeps, sent by
 * the campaign pipeline (sender check, Exclude Numbers, retry record, unknown outcomes).
 */

/**
 * This node's run in the execution (its question's, and its retry record's), its record begun
 * before anything is checked: a run that stops on a mistake leaves a record that nothing was sent
 * (an empty ledger), so a Retry of the execution after the fix sends once. A Retry finding no
 * record is still refused (retriedBlind.ts): the run may have sent before it was stopped.
 */
export function beginRun(ctx: IExecuteFunctions): number {
	const run = ctx.getWorkflowDataProxy(0).$runIndex;
	refuseBlindRetry(ctx, new Ledger(ctx.getContext('node'), run).started, run);
	return run;
}

/** An error before anything was sent. */
export function notSent(ctx: IExecuteFunctions, message: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, {
		itemIndex: 0,
		description: 'Nothing was sent.',
	});
}

/** The one number to text, in international digits, checked before anything is sent. */
export function numberToText(ctx: IExecuteFunctions, defaultCountryCode: unknown): string {
	const country = parseCountryCode(defaultCountryCode);
	if (!country.ok) throw notSent(ctx, `Default Country Code ${country.problem}`);
	const to = asText(ctx.getNodeParameter(QUESTION_PARAMETERS.recipients, 0, '')).trim();
	const number = normaliseMsisdn(to, country.code);
	if (!number.ok) throw notSent(ctx, `To: "${to}" is not a phone number: ${number.reason}`);
	return number.msisdn;
}

/** Limit Wait Time as a moment: minutes from now (0: never, where `allowNever`); anything else is a mistake. */
export function waitTillOf(
	ctx: IExecuteFunctions,
	given: unknown,
	limits: { min: number; max: number; fallback: number },
	at: Date,
): Date {
	const minutes = Number(given ?? limits.fallback);
	if (!Number.isFinite(minutes) || minutes < limits.min || minutes > limits.max) {
		const range = limits.min === 0 ? `from 0 (no limit)` : `from ${limits.min}`;
		throw notSent(
			ctx,
			`Limit Wait Time: must be a number of minutes ${range} to ${limits.max}, got "${asText(given)}"`,
		);
	}
	return minutes > 0 ? new Date(at.getTime() + minutes * 60_000) : WAIT_INDEFINITELY;
}

/** The Relay Secret, without which nothing that comes back could be proven: an error before sending. */
export async function relaySecretFor(ctx: IExecuteFunctions, what: string): Promise<string> {
	const secret = asText((await ctx.getCredentials('phonovationApi')).relaySecret);
	if (secret === '') throw notSent(ctx, `Credential: set a Relay Secret; it proves ${what}`);
	return secret;
}

/** A text this node's run has already sent (or begun to): its Notify ID, and when. */
export interface SentBefore {
	notifyId: string;
	askedAt: string;
}

/**
 * The text of this run of the node, the same on every attempt once it may have gone. Retry On
 * Fail and an execution Retry (which carries the node's context over) find the one an earlier
 * attempt began with, so the retry record sees the same text to the same number, never sends it
 * again, and the log row is pointed at this execution's resume URL instead. While nothing was
 * sent, an attempt asks anew: the number may have been fixed, and the question is asked now.
 * A text that may have gone to another number (or from another node, under another Relay Secret)
 * is not this question: nothing is sent, and the error says so.
 */
export function textOfThisRun(
	ctx: IExecuteFunctions,
	question: { ask: number; msisdn: string; at: Date },
	secret: string,
): SentBefore {
	const { ask, msisdn } = question;
	const runs = (ctx.getContext('node').phonovationQuestions ??= {}) as Record<string, SentBefore>;
	const earlier = runs[ask];
	const nodeId = ctx.getNode().id;
	// The ledger holds a request from before it is posted until it is proven refused.
	if (earlier && !new Ledger(ctx.getContext('node'), ask).isEmpty) {
		if (questionOf(earlier.notifyId, { nodeId, msisdn }, secret) === null)
			throw notSent(
				ctx,
				`To: this run's question may already have gone out (its outcome is unknown) to another number than ${msisdn}, or from another node or under another Relay Secret, so a Retry does not ask again; start a new execution to ask ${msisdn}`,
			);
		return earlier;
	}
	const executionId = ctx.getExecutionId();
	const notifyId = questionRef({ executionId, nodeId, msisdn, ask }, secret);
	if (notifyId === undefined)
		throw notSent(
			ctx,
			`This execution's id "${executionId}" is too long for a Notify ID the reply can carry`,
		);
	return (runs[ask] = { notifyId, askedAt: question.at.toISOString() });
}

/**
 * How the one text went: `sent` (accepted, or it may have gone out: a request that may have been
 * processed is never posted again, and the person may have it), `error` (a Continue On Fail item)
 * or `notSent` (excluded, refused by the provider…: the pipeline's item for it).
 */
export type TextOutcome =
	| { kind: 'sent'; report: IDataObject }
	| { kind: 'error'; item: INodeExecutionData }
	| { kind: 'notSent'; report: IDataObject };

/** Sends the one text through the campaign pipeline with its own Notify ID. */
export async function textOnce(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	text: { ask: number; msisdn: string; notifyId: string },
	source: Partial<CampaignParameters> = {},
): Promise<TextOutcome> {
	const texting = runCampaigns(ctx, items, 'send', {
		...QUESTION_PARAMETERS,
		...source,
		fixed: { notifyId: text.notifyId, messageType: 'transactional' },
	});
	const unconfirmed = () => {
		const record = new Ledger(ctx.getContext('node'), text.ask).recipient(
			Ledger.recipientKey(0, text.msisdn),
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
		if (!mayHaveGone) throw asNodeError(ctx, error, 0);
		sent = mayHaveGone;
	}
	if (sent.json.error !== undefined) sent = unconfirmed() ?? sent;
	if (sent.json.error !== undefined) return { kind: 'error', item: sent };
	if (sent.json.status !== 'accepted' && sent.json.status !== 'unconfirmed')
		return { kind: 'notSent', report: sent.json };
	return { kind: 'sent', report: sent.json };
}
