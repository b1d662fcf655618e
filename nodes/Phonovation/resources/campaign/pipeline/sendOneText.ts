// The campaign pipeline's public entry for one text to one number: sent once, and what happened.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError } from '../../../eachItem';
import { refuseBlindRetry } from '../../../retriedBlind';
import { TRANSACTIONAL } from '../options';
import { Ledger } from './ledger';
import type { CampaignOptions } from '../options';
import { runCampaigns } from './run';
import { nodeMemory } from '../../../runMemory';

/**
 * One text, sent by the campaign pipeline (sender check, Exclude Numbers, retry record, unknown
 * outcomes) with a Notify ID of its own that every attempt keeps. The node's own parameters say
 * who sends it, what it says and to whom; the pipeline reads them as it reads a campaign's.
 */
export interface OneText {
	/** The node's run in this execution the text belongs to (see `beginOneTextRun`). */
	run: number;
	/** The one number, in international digits. */
	msisdn: string;
	notifyId: string;
	/** The node parameters holding the sender, the text and the number. */
	parameters: { from: string; text: string; recipients: string };
	/** Added to the end of the text (a question's answer code). */
	textEnding?: string;
	/** The most characters kept of the text before its ending (the AI Agent's review message). */
	textLimit?: number;
}

/**
 * How the one text went: `sent` (accepted, or it may have gone out: a request that may have been
 * processed is never posted again, and the person may have it), `error` (a Continue On Fail item)
 * or `notSent` (excluded, refused by the provider…: the pipeline's item for it).
 */
export type OneTextOutcome =
	| { kind: 'sent'; report: IDataObject }
	| { kind: 'error'; item: INodeExecutionData }
	| { kind: 'notSent'; report: IDataObject };

/**
 * This node's run in the execution, its retry record begun before anything is checked: a run that
 * stops on a mistake leaves a record that nothing was sent, so a Retry of the execution after the
 * fix sends once. A Retry finding no record is still refused (retriedBlind.ts): the run may have
 * sent before it was stopped.
 */
export function beginOneTextRun(ctx: IExecuteFunctions): number {
	const run = ctx.getWorkflowDataProxy(0).$runIndex;
	refuseBlindRetry(ctx, new Ledger(nodeMemory(ctx), run).started, run);
	return run;
}

/** Whether this run's retry record holds a request (from before it is posted until it is proven refused). */
export function oneTextMayHaveGone(ctx: IExecuteFunctions, run: number): boolean {
	return !new Ledger(nodeMemory(ctx), run).isEmpty;
}

/** The record of a text whose outcome is unknown, as the pipeline's item for it; null otherwise. */
function unconfirmed(ctx: IExecuteFunctions, text: OneText): INodeExecutionData | null {
	const record = new Ledger(nodeMemory(ctx), text.run).recipient(
		Ledger.recipientKey(0, text.msisdn),
	);
	return record?.state === 'unconfirmed'
		? { json: { status: 'unconfirmed', reason: record.reason } }
		: null;
}

/** Sends the one text (the first input item's) through the campaign pipeline, once. */
export async function sendOneText(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	text: OneText,
): Promise<OneTextOutcome> {
	const texting = runCampaigns(ctx, items, 'send', {
		...text.parameters,
		textEnding: text.textEnding,
		textLimit: text.textLimit,
		fixed: { notifyId: text.notifyId, ...TRANSACTIONAL },
	});
	let sent: INodeExecutionData;
	try {
		[sent] = await texting;
	} catch (error) {
		const mayHaveGone = unconfirmed(ctx, text);
		if (!mayHaveGone) throw asNodeError(ctx, error, 0);
		sent = mayHaveGone;
	}
	if (sent.json.error !== undefined) sent = unconfirmed(ctx, text) ?? sent;
	if (sent.json.error !== undefined) return { kind: 'error', item: sent };
	if (sent.json.status !== 'accepted' && sent.json.status !== 'unconfirmed')
		return { kind: 'notSent', report: sent.json };
	return { kind: 'sent', report: sent.json };
}

/**
 * Texts an operation worked out itself (a reply each: its sender, text and number), sent as one
 * campaign run with the fixed options: each posted once under every retry, an item reported each.
 */
export async function sendWorkedOutTexts(
	ctx: IExecuteFunctions,
	texts: ReadonlyArray<{ from: string; text: string; recipients: string }>,
	fixed: CampaignOptions,
): Promise<INodeExecutionData[]> {
	const items = texts.map(() => ({ json: {} }));
	return await runCampaigns(ctx, items, 'send', {
		from: '',
		text: '',
		recipients: '',
		values: texts,
		fixed,
	});
}
