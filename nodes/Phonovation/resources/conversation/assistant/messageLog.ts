// The calls that keep a person's messages in the inbox's `messages` table (through the Question Log).
import type { IExecuteFunctions } from 'n8n-workflow';

import { callLog } from '../questionLog';
import { type LoggedMessage, messagesOf } from './messages';

/** This run of the node in its execution (a loop runs it again), for the ids of its rows. */
export const runOf = (ctx: IExecuteFunctions) => ({
	executionId: ctx.getExecutionId(),
	runIndex: ctx.getWorkflowDataProxy(0).$runIndex,
});

/** Logs one message and gives back every message of the person, it included. */
export async function logMessage(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: LoggedMessage,
): Promise<LoggedMessage[]> {
	return messagesOf(await callLog(ctx, itemIndex, { action: 'converse', ...message }));
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
