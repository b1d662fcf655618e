// A wait's paused state: written into the paused item when the run pauses, read back from it at resume.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
} from 'n8n-workflow';

import { asText } from '../../../../shared/values';

/** What a paused run waits for: a reply (Send and Wait for Reply) or a receipt (for Delivery). */
export type WaitsFor = 'reply' | 'receipt';

/** What a paused run knows of its text. */
export interface PausedState {
	/** The number texted, in international digits. */
	to: string;
	notifyId: string;
	/** When it was asked or sent (ISO): the item's `askedAt` for a question, `sentAt` for a text. */
	at: string;
}

/**
 * The paused item, read back when something comes to the waiting node: n8n resolves `$json` there
 * to the item the node paused with. Runs paused by earlier versions, which read the same fields of
 * the same item through hidden parameters of their own (`askedAt`, `askedTo`, `askedNotifyId` for a
 * question), are read the same way.
 */
export const waitingItemField: INodeProperties = {
	displayName: 'Waiting Item',
	name: 'waitingItem',
	type: 'hidden',
	default: '={{ $json }}',
};

/** The state as the item holds it, in the order its fields have always had. */
function stateFields(waitsFor: WaitsFor, { to, notifyId, at }: PausedState): IDataObject {
	return waitsFor === 'reply' ? { to, askedAt: at, notifyId } : { to, notifyId, sentAt: at };
}

/** What a wait's item says: so far (`says`), its state, the send report, and anything after it. */
export interface WaitItem {
	says: IDataObject;
	state: PausedState;
	sent: IDataObject;
	after?: IDataObject;
}

/**
 * Writes the wait's item over the input item, in place: the input's fields, what it says so far,
 * the state and the send report. In place, because n8n keeps that very item while the run waits:
 * it is what the webhook reads back, and what goes on unchanged when Limit Wait Time passes.
 */
export function writeWaitItem(item: INodeExecutionData, waitsFor: WaitsFor, parts: WaitItem): void {
	const state = stateFields(waitsFor, parts.state);
	item.json = { ...item.json, ...parts.says, ...state, sent: parts.sent, ...parts.after };
}

/** Writes the wait's item and puts the execution to wait until `until` (or what comes first). */
export async function pause(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	waitsFor: WaitsFor,
	parts: WaitItem & { until: Date },
): Promise<void> {
	writeWaitItem(item, waitsFor, parts);
	await ctx.putExecutionToWait(parts.until);
}

/** The paused item and its state, read back by the waiting node's webhook. */
export function readPaused(
	ctx: IWebhookFunctions,
	waitsFor: WaitsFor,
): { item: IDataObject; state: PausedState } {
	const value = ctx.getNodeParameter(waitingItemField.name, {}) as unknown;
	const item =
		value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
	const at = waitsFor === 'reply' ? item.askedAt : item.sentAt;
	return { item, state: { to: asText(item.to), notifyId: asText(item.notifyId), at: asText(at) } };
}

/** Whole seconds the run waited since a time (ms), null when it is unknown. */
export const secondsSince = (since: number): number | null =>
	Number.isNaN(since) ? null : Math.max(0, Math.round((Date.now() - since) / 1000));

/** What a delivery to a waiting node comes to: the run resumed with these outputs, or left waiting. */
export type Resumption =
	| { resumed: true; answer: unknown; outputs: INodeExecutionData[][] }
	| { resumed: false; status: number; reason: string; reprompt?: string };

/** The run stays waiting; the caller (Deliver Reply or Deliver Receipt) is told why. */
export const stillWaiting = (status: number, reason: string, reprompt?: string): Resumption => ({
	resumed: false,
	status,
	reason,
	reprompt,
});
