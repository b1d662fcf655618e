// The Question Log: the field that chooses it, and the calls that record, find and settle questions.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asText } from '../../../shared/values';
import {
	INBOX_WORKFLOW_FILE,
	INBOX_WORKFLOW_URL,
	protocolMismatch,
	REIMPORT_STEPS,
} from './inboxWorkflow';

/**
 * The bridge between a question and its answer: the inbox workflow the user imports once (its
 * When Executed by Another Workflow entry → Data Table, examples/inbox), called by the asking node
 * before the question is texted and by Deliver Reply when a reply comes in. Community nodes
 * cannot use Data Tables, and workflow static data is saved whole at the end of each execution
 * (two questions asked at once would lose one); a sub-workflow runs inside n8n, under n8n's own
 * caller policy, so nobody with a URL can record a question or redirect a reply.
 */
export const questionLogField: INodeProperties = {
	displayName: 'Question Log',
	name: 'questionLog',
	type: 'workflowSelector',
	required: true,
	default: '',
	description:
		'The workflow that records questions and finds them again: the inbox, imported once and published (<a href="https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation/blob/main/docs/conversations.md#on-your-own-n8n-step-by-step">its import URL and the steps</a>). Send and Wait and the Deliver operations must use the same one.',
};

/** A question as the log keeps it: one row per Notify ID. */
export interface LoggedQuestion {
	/** The Notify ID the question was texted with. */
	reference: string;
	/** The number asked, in international digits. */
	phone: string;
	/** The waiting node's resume URL: node-signed for a question, its run token sealed for a receipt. */
	resumeUrl: string;
	askedAt: string;
	/** When the run stops waiting; empty when it waits without a limit. */
	expiresAt: string;
	/** `receipt`: the run waits for the text's delivery receipt (Send and Wait for Delivery), not a reply. */
	waitsFor?: 'receipt';
	/** The marks of the relays that answered it, or may have (replyProof.ts relayMark), space-separated. */
	settledBy?: string;
}

function logError(ctx: IExecuteFunctions, itemIndex: number, message: string, cause?: unknown) {
	const said = cause instanceof Error ? `: ${cause.message}` : '';
	return new NodeOperationError(ctx.getNode(), `Question Log: ${message}${said}`, {
		itemIndex,
		description: `Import the inbox workflow (Import ▸ From File: ${INBOX_WORKFLOW_FILE}, or Import ▸ From URL: ${INBOX_WORKFLOW_URL}), publish it, and choose it here.`,
	});
}

export async function callLog(
	ctx: IExecuteFunctions,
	itemIndex: number,
	input: IDataObject,
): Promise<IDataObject[]> {
	// Saved as a resource locator ({ __rl, mode, value }) by the editor, or as a plain id.
	const chosen = ctx.getNodeParameter('questionLog', itemIndex, '') as unknown;
	const id = asText(chosen && typeof chosen === 'object' ? (chosen as IDataObject).value : chosen);
	if (id.trim() === '')
		throw logError(ctx, itemIndex, 'choose the workflow that records questions');
	let result;
	try {
		result = await ctx.executeWorkflow({ id }, [{ json: input }], undefined, {
			parentExecution: { executionId: ctx.getExecutionId(), workflowId: ctx.getWorkflow().id! },
		});
	} catch (error) {
		throw logError(ctx, itemIndex, `the workflow ${id} failed`, error);
	}
	const answer = (result.data?.[0] ?? []).map((item) => item.json ?? {});
	// The handshake: an inbox of another version would read or write rows our nodes misjudge.
	const mismatch = protocolMismatch(answer);
	if (mismatch !== null)
		throw new NodeOperationError(ctx.getNode(), `Question Log: ${mismatch}`, {
			itemIndex,
			description: `To re-import the inbox over workflow ${id}: ${REIMPORT_STEPS}.`,
		});
	return answer.map((item) => {
		const row = { ...item };
		delete row.inboxProtocol;
		return row;
	});
}

/** Records the question, and refuses to go on unless the log gives it back: nothing is texted unrecorded. */
export async function recordQuestion(
	ctx: IExecuteFunctions,
	question: LoggedQuestion,
): Promise<void> {
	const rows = await callLog(ctx, 0, { action: 'record', ...question });
	// Every field as it was sent: a column typed as a number, renamed or missing would make the
	// question unanswerable, and is caught before the text is paid for.
	const kept = (row: IDataObject) =>
		(Object.keys(question) as Array<keyof LoggedQuestion>).every(
			(key) => row[key] === question[key] || (question[key] === '' && row[key] == null),
		);
	if (!rows.some(kept)) {
		throw logError(
			ctx,
			0,
			`the workflow did not give the ${question.waitsFor ? 'text' : 'question'} back as recorded (is it the inbox, or a log with text columns reference, phone, resumeUrl, askedAt, expiresAt${question.waitsFor ? ' and waitsFor' : ''}?)`,
		);
	}
}

const isQuestion = (row: IDataObject): boolean =>
	['reference', 'phone', 'resumeUrl'].every((key) => typeof row[key] === 'string' && row[key]);

/**
 * The questions the log holds for this number, the one with this reference (a reply's link, a
 * receipt's text) and, given a `settled` mark, every question that mark settled, whatever its number.
 */
export async function findQuestions(
	ctx: IExecuteFunctions,
	itemIndex: number,
	phone: string,
	{ reference, settled = '' }: { reference: string | null; settled?: string },
): Promise<LoggedQuestion[]> {
	const rows = await callLog(ctx, itemIndex, {
		action: 'find',
		phone,
		reference: reference ?? '',
		...(settled ? { settled } : {}),
	});
	return rows.filter(isQuestion).map((row) => ({
		reference: asText(row.reference),
		phone: asText(row.phone),
		resumeUrl: asText(row.resumeUrl),
		askedAt: asText(row.askedAt),
		expiresAt: asText(row.expiresAt),
		...(row.waitsFor === 'receipt' ? { waitsFor: 'receipt' as const } : {}),
		...(typeof row.settledBy === 'string' && row.settledBy ? { settledBy: row.settledBy } : {}),
	}));
}

/**
 * Marks a question as settled by a relay, so the same relay never answers again: null when the log
 * kept the mark, else why not. A failed call throws; markSettled (settledRelays.ts) turns every
 * failure into the item's `notRemembered`, since the reply was delivered by then.
 */
export async function recordSettled(
	ctx: IExecuteFunctions,
	itemIndex: number,
	settled: { reference: string; settledBy: string },
): Promise<string | null> {
	const rows = await callLog(ctx, itemIndex, { action: 'settle', ...settled });
	const kept = rows.some(
		(row) => row.reference === settled.reference && row.settledBy === settled.settledBy,
	);
	return kept
		? null
		: 'the log did not give the question back marked (is there a text column settledBy?)';
}
