// The campaign pipeline's entries for texts an operation works out: Ask's one text, Reply's replies.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError } from '../../../eachItem';
import { TRANSACTIONAL } from '../options';
import type { SenderRecord } from '../../sender/senders';
import type { CampaignRun } from './campaignRun';

// The conversation operations begin their run here too (the pipeline's one door for them).
export { beginCampaignRun, type CampaignRun } from './campaignRun';
import { Ledger } from './ledger';
import type { CampaignOptions } from '../options';
import { type CampaignFields, readParameters } from './readParameters';
import { runCampaigns } from './run';
import type { TextRequest } from './textRequest';
import { nodeMemory } from '../../../runMemory';

/**
 * One text, sent by the campaign pipeline (sender check, Exclude Numbers, retry record, unknown
 * outcomes) with a Notify ID of its own that every attempt keeps. The node's own fields say who
 * sends it, what it says and to whom.
 */
export interface OneText {
	/** The node's run in this execution the text belongs to, begun by the operation. */
	run: CampaignRun;
	/** The one number, in international digits. */
	msisdn: string;
	notifyId: string;
	/** The node fields holding the sender, the text and the number. */
	fields: CampaignFields;
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

/** Whether this run's retry record holds a request (from before it is posted until it is proven refused). */
export function oneTextMayHaveGone(run: CampaignRun): boolean {
	return !run.ledger.isEmpty;
}

/** The record of a text whose outcome is unknown, as the pipeline's item for it; null otherwise. */
function unconfirmed(ctx: IExecuteFunctions, text: OneText): INodeExecutionData | null {
	// Read anew: what this attempt posted is not in the record's look-ups made before it.
	const record = new Ledger(nodeMemory(ctx), text.run.index).recipient(
		Ledger.recipientKey(0, text.msisdn),
	);
	return record?.state === 'unconfirmed'
		? { json: { status: 'unconfirmed', reason: record.reason } }
		: null;
}

/** A text cut to the operation's limit, with its ending; anything but a text is left for the rules to name. */
function shapedText(text: unknown, { textEnding = '', textLimit }: OneText): unknown {
	if (typeof text !== 'string' || text.trim() === '') return text;
	const kept = text.trimEnd();
	if (textLimit === undefined || kept.length <= textLimit) return `${kept}${textEnding}`;
	// The reader must know there is more than they see.
	const more = (shown: number) => `… (+${kept.length - shown} characters not shown)`;
	const shown = textLimit - more(textLimit).length;
	return `${kept.slice(0, shown)}${more(shown)}${textEnding}`;
}

/** Sends the one text (the first input item's) through the campaign pipeline, once. */
export async function sendOneText(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	text: OneText,
): Promise<OneTextOutcome> {
	let sent: INodeExecutionData;
	try {
		const requests = readParameters(ctx, items, false, text.fields).map((request) => ({
			...request,
			text: shapedText(request.text, text),
			// The question's own Notify ID, whatever the node's options say.
			options: { ...request.options, notifyId: text.notifyId, ...TRANSACTIONAL },
		}));
		[sent] = await runCampaigns(ctx, requests, 'send', text.run);
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

/** A text an operation worked out itself for an input item: its sender, text and number. */
export interface WorkedOutText {
	itemIndex: number;
	from: string;
	text: string;
	recipients: string;
}

/**
 * Texts an operation worked out itself (a reply each), sent as one campaign run with the fixed
 * options: each posted once under every retry, and reported at its input item's index (an error
 * names that item). `senders`: the account's list when the operation read it in this attempt.
 */
export async function sendWorkedOutTexts(
	ctx: IExecuteFunctions,
	run: CampaignRun,
	texts: readonly WorkedOutText[],
	{ fixed, senders }: { fixed: CampaignOptions; senders?: SenderRecord[] },
): Promise<INodeExecutionData[]> {
	const requests = texts.map((text): TextRequest => ({
		...text,
		sendAt: undefined,
		options: { ...fixed },
		unreadable: [],
	}));
	return await runCampaigns(ctx, requests, 'send', { ...run, senders });
}
