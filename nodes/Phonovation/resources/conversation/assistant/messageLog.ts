// The calls that keep a person's messages in the inbox's `messages` table (through the Question Log).
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asText } from '../../../../shared/values';
import { callLog } from '../questionLog';
import { arrivalColumn, type LoggedMessage, messageId, messagesOf, seenRow } from './messages';
import { nodeMemory, remembered, type RunMemoryKey } from '../../../runMemory';

/** This run of the node in its execution (a loop runs it again), for the ids of its rows. */
export const runOf = (ctx: IExecuteFunctions) => ({
	executionId: ctx.getExecutionId(),
	runIndex: ctx.getWorkflowDataProxy(0).$runIndex,
});

/**
 * Logs one message and gives back every message of the person, it included. As `seen` (a relay kept
 * as seen: seenRowOf), one row per key and number (the log updates the number's row of the key, or
 * adds it), so copies of a relay add no rows and the first number's row keeps its place; it then
 * also gives back the first row ever logged with the key. An inbox imported before it kept relays
 * seen gives back none.
 */
export async function logMessage(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: LoggedMessage,
	action: 'converse' | 'seen' = 'converse',
): Promise<LoggedMessage[]> {
	// The stamp goes in the arrivedAt column (arrivalColumn): the inbox keeps no column of its own for it.
	const row: IDataObject = { action, ...message, arrivedAt: arrivalColumn(message) };
	delete row.providerAt;
	return messagesOf(await callLog(ctx, itemIndex, row));
}

/**
 * Every message of the person, and every copy of the relay with this key whatever number it
 * claims (the log gives back both on `converse` too): a copy with its From/Content boundary moved
 * names another number.
 */
export async function messagesOfPerson(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ phone, key }: { phone: string; key: string },
): Promise<LoggedMessage[]> {
	return messagesOf(await callLog(ctx, itemIndex, { action: 'conversation', phone, key }));
}

/**
 * Gives the person's texts not yet in a turn, logged up to `upTo`, to this turn, and returns the
 * texts the turn holds. The log takes only texts still free, so two runs never take the same.
 */
export async function claimTurn(
	ctx: IExecuteFunctions,
	itemIndex: number,
	claim: { phone: string; turn: string; upTo: string },
): Promise<LoggedMessage[]> {
	return messagesOf(await callLog(ctx, itemIndex, { action: 'claim', ...claim }));
}

/** What a node logged per run and item, kept in its node context under its own key. */
type LoggedIds = Record<number, Record<number, { id: string; at: string }>>;

/**
 * Logs a message once for this node, run and item, whatever the retries, and gives back the log's
 * rows with the message's own row. Its id and time are kept in the node's context before the log
 * is called, so a Retry of the execution (a new execution id, the same context) logs nothing new
 * and finds its own row: a text it logged is not taken for a replay, a reply it logged but never
 * sent is not taken for another's. `message.id` and `message.at` are used the first time only.
 */
export async function logOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: LoggedMessage,
	memoryKey: Extract<
		RunMemoryKey,
		'burstLogged' | 'replyLogged' | 'optInLogged' | 'handoverLogged'
	>,
): Promise<{ rows: LoggedMessage[]; logged: LoggedMessage }> {
	const all = remembered<LoggedIds[number]>(nodeMemory(ctx), memoryKey);
	const run = (all[runOf(ctx).runIndex] ??= {});
	const before = run[itemIndex];
	run[itemIndex] ??= { id: message.id, at: message.at };
	const mine = { ...message, ...run[itemIndex] };
	const find = (rows: LoggedMessage[]) => rows.find((row) => row.id === mine.id);
	let rows = before ? await messagesOfPerson(ctx, itemIndex, mine) : [];
	if (!find(rows)) rows = await logMessage(ctx, itemIndex, mine);
	const logged = find(rows);
	if (!logged)
		throw new NodeOperationError(
			ctx.getNode(),
			`Question Log: the workflow did not give the ${mine.kind === 'out' ? 'reply' : mine.kind === 'handover' ? 'hand-over' : 'text'} back as logged (is it the inbox, with its messages table?); nothing was sent`,
			{ itemIndex },
		);
	return { rows, logged };
}

/**
 * The row that keeps a trigger item's relay as seen by this run of the node: its signed text's key,
 * for this number, now. Null when the item has no relayKey (a trigger of an earlier version).
 */
export function seenRowOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	item: IDataObject,
	phone: string,
): LoggedMessage | null {
	const key = asText(item.relayKey);
	if (key === '') return null;
	const id = messageId('seen', runOf(ctx), itemIndex);
	return seenRow({ phone, key, at: new Date().toISOString(), id });
}
