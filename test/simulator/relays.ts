import { finishedAt, relayTimestamp } from './clock';
import { inboundSignature, md5Hex, receiptSignature } from './signatures';

/**
 * Field-name spellings seen in the wild: `standard` as on the developer site, `variant` as in the
 * knowledgebase and third-party code (`SMS-NotifyID`, `SMS-KeyPhrase`), `lower` all lower-case.
 */
export type FieldCasing = 'standard' | 'variant' | 'lower';

interface RelayCommon {
	/** POST here instead of the configured relayUrl. */
	url?: string;
	timestamp?: string;
	fieldCasing?: FieldCasing;
	/** Sign with a wrong key, so a verifying receiver must reject the relay. */
	wrongSignature?: boolean;
	/** Put exactly this in SMS-Verify (overrides signing). */
	verify?: string;
}

export interface InboundOptions extends RelayCommon {
	from?: string;
	/**
	 * The number texted; by default the longcode of the linked message, else the account's first
	 * numeric sender, else `353877777777`.
	 */
	to?: string;
	content?: string;
	keyphrase?: string;
	/**
	 * SMS-NotifyId exactly as given (`''` sends an empty one). Left out, the simulator links the
	 * reply: the notifyId of the last message out to `from`, unless linking is off.
	 */
	notifyId?: string;
	/** `false`: no linking for this reply (empty SMS-NotifyId unless `notifyId` is given). */
	linked?: boolean;
	network?: string;
	type?: string;
	authCode?: string;
	groupCode?: string;
}

/** Opt-outs go to the shared shortcode and are never linked to a message. */
export interface OptOutOptions extends Omit<InboundOptions, 'to' | 'linked'> {
	/** `STOP` (default) or `OPTOUT`. */
	content?: string;
}

export interface ReceiptOptions extends RelayCommon {
	notifyId?: string;
	success?: boolean;
	/** The handset number the message went to. */
	to?: string;
	/** The sender ID the message was sent under. */
	from?: string;
	totalToSend?: number;
	totalSent?: number;
	totalFailed?: number;
	/** `lower` (default) hashes `true`/`false` like the provider's example; `sent` hashes `True`/`False`. */
	hashSuccessAs?: 'lower' | 'sent';
}

export type ProcessingStatus = 'MESSAGE_SUCCESS' | 'MESSAGE_ERROR' | 'CAMPAIGN_ERROR';

export interface ProcessingResultOptions {
	url?: string;
	status?: ProcessingStatus;
	message?: string;
	/** Ignored for CAMPAIGN_ERROR, which never carries a NotifyId key. */
	notifyId?: string;
	finishedAt?: string;
	fractionDigits?: 5 | 6 | 7;
	/** Appended as `?token=` (a receiver may use it to authenticate the webhook). */
	token?: string;
}

export interface RelayPayload {
	contentType: string;
	body: string;
	/** The fields (form relays) or the JSON object (processing results) that were sent. */
	fields: Record<string, string>;
}

export interface RelayContext {
	secret: string;
	nowMs: number;
	/** Used as a receipt's SMS-From when none is given. */
	defaultSender: string;
}

export const OPT_OUT_SHORTCODE = '50123';

/** A reply's SMS-From when none is given. */
export const DEFAULT_REPLY_FROM = '353871111111';

const PROCESSING_MESSAGES: Record<ProcessingStatus, string> = {
	MESSAGE_SUCCESS: 'Your message has been queued.',
	MESSAGE_ERROR: 'Error trying to add a new message. No credits available',
	CAMPAIGN_ERROR: 'Sender is not valid',
};

const FORM = 'application/x-www-form-urlencoded';

function fieldName(name: string, casing: FieldCasing = 'standard'): string {
	if (casing === 'lower') return name.toLowerCase();
	if (casing === 'variant') {
		if (name === 'SMS-NotifyId') return 'SMS-NotifyID';
		if (name === 'SMS-Keyphrase') return 'SMS-KeyPhrase';
	}
	return name;
}

function form(entries: Array<[string, string]>, casing?: FieldCasing): RelayPayload {
	const fields: Record<string, string> = {};
	for (const [name, value] of entries) fields[fieldName(name, casing)] = value;
	return { contentType: FORM, body: new URLSearchParams(fields).toString(), fields };
}

/** A key no receiver is configured with, so the digest is well-formed but wrong. */
function signingKey(opts: RelayCommon, ctx: RelayContext): string {
	return opts.wrongSignature ? `${ctx.secret}-not-the-relay-secret` : ctx.secret;
}

export function inboundRelay(opts: InboundOptions, ctx: RelayContext): RelayPayload {
	const from = opts.from ?? DEFAULT_REPLY_FROM;
	const content = opts.content ?? 'Test reply';
	return form(
		[
			['SMS-Type', opts.type ?? 'AuthCode'],
			['SMS-Content', content],
			['SMS-Keyphrase', opts.keyphrase ?? '*'],
			['SMS-Network', opts.network ?? '272/1'],
			['SMS-From', from],
			['SMS-To', opts.to ?? '353877777777'],
			['SMS-NotifyId', opts.notifyId ?? ''],
			['SMS-Verify', opts.verify ?? inboundSignature(from, content, signingKey(opts, ctx))],
			['SMS-TimeStamp', opts.timestamp ?? relayTimestamp(ctx.nowMs)],
			['SMS-AuthCode', opts.authCode ?? 'AUTH:reply/1450707'],
			['SMS-GroupCode', opts.groupCode ?? 'AUTH:G353870934726/*'],
		],
		opts.fieldCasing,
	);
}

/** An opt-out: a STOP/OPTOUT text to the shared shortcode, relayed like any inbound message. */
export function optOutRelay(opts: OptOutOptions, ctx: RelayContext): RelayPayload {
	const content = opts.content ?? 'STOP';
	return inboundRelay(
		{
			...opts,
			content,
			to: OPT_OUT_SHORTCODE,
			keyphrase: opts.keyphrase ?? content.trim().split(/\s+/)[0].toUpperCase(),
		},
		ctx,
	);
}

export function deliveryReceipt(opts: ReceiptOptions, ctx: RelayContext): RelayPayload {
	const notifyId = opts.notifyId ?? '321354';
	const success = opts.success ?? true;
	const key = signingKey(opts, ctx);
	const verify =
		opts.verify ??
		(opts.hashSuccessAs === 'sent'
			? md5Hex(notifyId + (success ? 'True' : 'False') + key)
			: receiptSignature(notifyId, success, key));
	const totalToSend = opts.totalToSend ?? 1;
	return form(
		[
			['SMS-Type', 'Notification'],
			['SMS-NotifyId', notifyId],
			['SMS-Success', success ? 'True' : 'False'],
			['SMS-To', opts.to ?? '353861234567'],
			['SMS-From', opts.from ?? ctx.defaultSender],
			['SMS-Verify', verify],
			['SMS-TotalToSend', String(totalToSend)],
			['SMS-TotalSent', String(opts.totalSent ?? (success ? totalToSend : 0))],
			['SMS-TotalFailed', String(opts.totalFailed ?? (success ? 0 : totalToSend))],
			['SMS-TimeStamp', opts.timestamp ?? relayTimestamp(ctx.nowMs)],
		],
		opts.fieldCasing,
	);
}

/** The V2 "SMS processing result" webhook: JSON with PascalCase keys. */
export function processingResult(opts: ProcessingResultOptions, ctx: RelayContext): RelayPayload {
	const status = opts.status ?? 'MESSAGE_SUCCESS';
	const result: Record<string, string> = {
		Status: status,
		FinishedAt: opts.finishedAt ?? finishedAt(ctx.nowMs, opts.fractionDigits),
		Message: opts.message ?? PROCESSING_MESSAGES[status] ?? '',
	};
	if (status !== 'CAMPAIGN_ERROR') result.NotifyId = opts.notifyId ?? '';
	return { contentType: 'application/json', body: JSON.stringify(result), fields: result };
}
