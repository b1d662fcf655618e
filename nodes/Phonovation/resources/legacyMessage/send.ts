// Legacy Message Send: its fields, and one form post per item to the legacy API, never twice.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { secureEndpoint, shown } from '../../../shared/endpoints';
import { LIMITS } from '../../domain/rules';
import { providerError } from '../../transport/failures';
import { mayHaveBeenProcessed, provesRefusal } from '../../transport/processed';
import { CREDENTIAL, isFailure, plainRequest, type PlainResponse } from '../../transport/request';
import { eachItem } from '../../eachItem';
import { refuseBlindRetry } from '../../retriedBlind';
import { WriteAhead } from '../campaign/pipeline/sharedWithLegacySend';
import { defaultCountryCodeField } from '../../numberFields';
import { ExcludeNumbers, excludeNumbersOption } from './excludeNumbers';
import { fail, type LegacyMessage, readMessage } from './message';
import { skippedItem, skipsOf } from './oncePerRun';
import { SentLedger } from './sentLedger';
import { nodeMemory } from '../../runMemory';
import type { Listing } from '../../resourceFields';

export const description = updateDisplayOptions(
	{ show: { resource: ['legacyMessage'], operation: ['send'] } },
	[
		{
			displayName: 'From',
			name: 'from',
			type: 'string',
			required: true,
			default: '',
			description: 'Sender ID: up to 11 letters and digits without spaces, or a number',
		},
		{
			displayName: 'To',
			name: 'to',
			type: 'string',
			required: true,
			default: '',
			placeholder: '0871234567',
			description: 'One number per item (the legacy API takes a single recipient per request)',
		},
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			required: true,
			default: '',
			description: `Message text, at most ${LIMITS.legacyText} characters (the legacy API's limit). Each line break is sent as ¬, which the gateway turns back into a line break, and counts as one character.`,
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				defaultCountryCodeField(
					"A country's calling code (353 = Ireland, 44 = UK) given to a number written in national form with a leading 0",
				),
				excludeNumbersOption,
				{
					displayName: 'Notify ID',
					name: 'notifyId',
					type: 'string',
					default: '',
					description: `Your reference (max ${LIMITS.notifyId} characters), echoed in delivery receipts`,
				},
			],
		},
	],
);

/** The provider's answer with the password masked: its first line is the status code. */
function statusLines(body: unknown, secret: string): { code: string; message: string } {
	const lines = String(body ?? '')
		.split(/\r?\n/)
		.map((line) => (secret ? line.split(secret).join('***') : line).trim());
	return { code: lines[0] ?? '', message: lines.slice(1).filter(Boolean).join(' ') };
}

/** A 200 in the gateway's own format: a numeric status code on its first line. */
function legacyAnswer(response: PlainResponse): boolean {
	return (
		response.status === 200 &&
		/^\d+$/.test(
			String(response.body ?? '')
				.split(/\r?\n/, 1)[0]
				.trim(),
		)
	);
}

/** The provider's status line when it accepted the message; otherwise an error with its words, password masked. */
function accepted(
	ctx: IExecuteFunctions,
	response: PlainResponse,
	password: string,
	itemIndex: number,
) {
	const { code, message } = statusLines(response.body, password);
	if (response.status !== 200) {
		const text = [code, message].filter(Boolean).join(' ').slice(0, 300);
		throw new NodeApiError(
			ctx.getNode(),
			{ httpCode: String(response.status), message: text },
			{
				message: `Phonovation's legacy API answered HTTP ${response.status}${text ? `: ${text}` : ''}`,
				description: provesRefusal(response.status, response.body)
					? 'The request was refused, so the message was not sent; a retry may send it.'
					: 'The legacy API answers HTTP 200 even when it refuses a message, so whether this one was sent is unknown; it is not posted again. Check before sending it again.',
				itemIndex,
			},
		);
	}
	if (!legacyAnswer(response)) {
		throw new NodeApiError(
			ctx.getNode(),
			{ httpCode: '200', message: 'not a legacy status line' },
			{
				message: "Phonovation's legacy API answered HTTP 200 without its status line",
				description:
					'Whether the message was sent is unknown, so it is not posted again: check before sending it again.',
				itemIndex,
			},
		);
	}
	if (code !== '0') {
		throw new NodeApiError(
			ctx.getNode(),
			{ code, message },
			{
				message: `Phonovation's legacy API refused the message (status ${code || 'missing'}): ${message || 'no message'}`,
				description:
					'A status other than 0 may still come after the message went, so it is not posted again by a retry: check before sending it again.',
				itemIndex,
			},
		);
	}
	return { code, message };
}

/**
 * A redirect is never followed: 307 and 308 would post the form, password included, to wherever
 * Location points. The answer is an error naming the status, never the Location.
 */
function refuseRedirect(
	ctx: IExecuteFunctions,
	response: PlainResponse,
	url: string,
	itemIndex: number,
): void {
	if (response.status < 300 || response.status >= 400) return;
	const message = `Phonovation's legacy API at ${shown(url)} answered HTTP ${response.status} (a redirect). The legacy send never follows redirects, so the password is not sent anywhere else. Check the credential's Legacy Base URL.`;
	throw new NodeApiError(
		ctx.getNode(),
		{ httpCode: String(response.status), message },
		{
			message,
			description:
				'Whether the server that answered with the redirect acted on the message is unknown: check before sending it again.',
			itemIndex,
		},
	);
}

/** `sendmessage.aspx`: form-encoded, always HTTP 200; the body's first line is the status code. */
const NOT_AGAIN =
	'sent in an earlier attempt of this execution (Retry On Fail or a retried execution); not posted again, even where its text or settings now differ';

/** The legacy endpoint and the form it takes for one message, from the credential. */
async function legacyForm(ctx: IExecuteFunctions, message: LegacyMessage, itemIndex: number) {
	const credentials = await ctx.getCredentials(CREDENTIAL);
	const apiId = String(credentials.apiId ?? '').trim();
	if (!apiId) fail(ctx, 'The credential has no API ID; the legacy API needs one', itemIndex);
	const url = secureEndpoint(credentials, 'legacyBaseUrl', '/sendmessage.aspx');
	const password = String(credentials.password ?? '');
	const form = new URLSearchParams({
		user: String(credentials.username ?? ''),
		password,
		api_id: apiId,
		to: message.to,
		text: message.text,
		from: message.from,
	});
	if (message.notifyId) form.set('notify_id', message.notifyId);
	return { url, password, form };
}

async function sendOne(
	ctx: IExecuteFunctions,
	message: LegacyMessage,
	itemIndex: number,
	ledger: SentLedger,
): Promise<INodeExecutionData[]> {
	const { url, password, form } = await legacyForm(ctx, message, itemIndex);
	const key = SentLedger.key(itemIndex, message.to);
	const earlier = ledger.get(key);
	if (earlier?.unknown) {
		fail(
			ctx,
			`The legacy send could not be confirmed in an earlier attempt of this execution, so it may have been sent; it is not posted again. Check the provider before sending again`,
			itemIndex,
		);
	}
	if (earlier) return [{ json: { ...earlier, note: NOT_AGAIN }, pairedItem: { item: itemIndex } }];

	const signal = ctx.getExecutionCancelSignal();
	if (signal?.aborted) fail(ctx, 'The execution was stopped; nothing more was sent', itemIndex);
	// Written ahead: an execution stopped, timed out or ended before the answer finds it unconfirmed.
	const written = new WriteAhead<IDataObject>({
		record: (entry) => (ledger.record(key, entry), key),
		forget: () => ledger.forget(key),
	});
	written.ahead({ unknown: true });
	const response = await plainRequest(ctx, {
		method: 'POST',
		url,
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/plain' },
		body: form.toString(),
		json: false,
		disableFollowRedirect: true,
		...(signal ? { abortSignal: signal } : {}),
	});
	if (isFailure(response)) {
		if (!mayHaveBeenProcessed(response)) written.refused();
		throw providerError(ctx, 'the legacy send', response, itemIndex);
	}

	// Only a 4xx (or a 503 with the provider's own JSON refusal) proves nothing went. A status line
	// other than 0 is the gateway's failure, like a campaign's success: false: it may follow sending.
	if (provesRefusal(response.status, response.body)) written.refused();
	refuseRedirect(ctx, response, url, itemIndex);
	const { code, message: said } = accepted(ctx, response, password, itemIndex);
	const { to, from, notifyId } = message;
	const json = { success: true, code, message: said, to, from, notifyId: notifyId || null };
	written.settle(json);
	return [{ json, pairedItem: { item: itemIndex } }];
}

type Checked = { ok: true; message: LegacyMessage } | { ok: false; error: unknown };

function checked(
	ctx: IExecuteFunctions,
	itemIndex: number,
	excludeNumbers: ExcludeNumbers,
): Checked {
	try {
		return { ok: true, message: readMessage(ctx, itemIndex, excludeNumbers) };
	} catch (error) {
		return { ok: false, error };
	}
}

/**
 * One legacy request per input item (the legacy API takes a single recipient). Every item is checked
 * first: without Continue On Fail an invalid item stops the run before anything is sent; with it, the
 * invalid item becomes an error item and the others are sent. An excluded number and a repeated
 * message (oncePerRun.ts) are not posted; their items say so.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	// First, so a run that stops on an invalid item still leaves its record: a Retry then sends.
	const runIndex = this.getWorkflowDataProxy(0).$runIndex;
	const ledger = new SentLedger(nodeMemory(this), runIndex);
	refuseBlindRetry(this, ledger.started, runIndex);
	const excludeNumbers = new ExcludeNumbers(this);
	const messages = items.map((_, itemIndex) => checked(this, itemIndex, excludeNumbers));
	const invalid = messages.find((item) => !item.ok);
	if (invalid && !invalid.ok && !this.continueOnFail()) throw invalid.error;
	const skips = skipsOf(
		messages.map((item) => (item.ok ? item.message : undefined)),
		(itemIndex, message) => ledger.get(SentLedger.key(itemIndex, message.to)) !== undefined,
	);
	return await eachItem(this, items, async (itemIndex) => {
		const item = messages[itemIndex];
		if (!item.ok) throw item.error;
		const skip = skips.get(itemIndex);
		if (skip) return [skippedItem(item.message, skip, itemIndex)];
		return await sendOne(this, item.message, itemIndex, ledger);
	});
}

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Send',
	'Send one message through the legacy API (needs the API ID)',
	'Send a legacy message',
	'docs/campaigns.md#legacy-message-send',
];
