import type { IDataObject } from 'n8n-workflow';

import { secretsMatch, verifyInboundSignature, verifyReceiptSignature } from './relaySignature';
import type { FormRecipe, FormRelayEvent, RelayEvent } from './events';
import { assertProcessingResult, formRecipeOf } from './events';
import type { FormFields } from './formBody';
import { keywordMatches } from './keywords';
import { messageItem, processingResultItem, receiptItem, UNLINKED_RECEIPT_HINT } from './relayItems';
import { notConfigured, unauthorized } from './rejection';
import type { RelayBody } from './requestBody';

export interface TriggerSettings {
	events: RelayEvent[];
	/** Upper-case keywords; empty means no filter. */
	keywords: string[];
	verifySignature: boolean;
	includeRaw: boolean;
	/** Whether a reply whose whole text is a stop word is an opt-out rather than an inbound message. */
	stopReplies: boolean;
	/** Whether receipts without a NotifyId are let through (marked unverified) instead of refused. */
	acceptUnlinkedReceipts: boolean;
}

/** The secrets relays are checked against; `undefined` when not set. */
export interface TriggerSecrets {
	relaySecret?: string;
	/** Required as `?token=` on processing results; without one they are refused. */
	urlToken?: string;
}

export interface RelayAccess {
	/** The `token` query parameter as n8n parsed it (a string, an array or absent). */
	queryToken: unknown;
	secrets: () => Promise<TriggerSecrets>;
}

/** Either an item to start the workflow with, or why the relay is acknowledged but ignored. */
export type RelayOutcome = { item: IDataObject } | { ignored: string };

async function verifyFormRelay(recipe: FormRecipe, fields: FormFields, access: RelayAccess) {
	const { relaySecret } = await access.secrets();
	if (!relaySecret) {
		throw notConfigured(
			'the Phonovation credential has no Relay Secret: add it to the credential or turn off Verify Signature',
		);
	}
	const verify = fields.get('SMS-Verify')?.trim() ?? '';
	if (verify === '') throw unauthorized('missing SMS-Verify signature');
	// Absent fields hash as empty: the signature then fails, unless it was made over them that way.
	const genuine =
		recipe === 'receipt'
			? verifyReceiptSignature(
					{ notifyId: fields.get('SMS-NotifyId') ?? '', success: fields.get('SMS-Success') ?? '', verify },
					relaySecret,
				)
			: verifyInboundSignature(
					{ from: fields.get('SMS-From') ?? '', content: fields.get('SMS-Content') ?? '', verify },
					relaySecret,
				);
	if (!genuine) throw unauthorized('invalid SMS-Verify signature');
}

async function checkToken(access: RelayAccess): Promise<void> {
	const { urlToken } = await access.secrets();
	if (!urlToken) {
		throw notConfigured(
			'processing results carry no signature and no URL Token is set: add one to the Phonovation credential and ?token=YOUR_TOKEN to the URL given to Phonovation',
		);
	}
	const received = access.queryToken;
	if (typeof received !== 'string' || !secretsMatch(urlToken, received)) {
		throw unauthorized('missing or invalid URL token');
	}
}

async function processingResult(read: () => IDataObject, settings: TriggerSettings, access: RelayAccess) {
	await checkToken(access);
	const value = read();
	assertProcessingResult(value);
	const item = processingResultItem(value);
	if (!settings.events.includes('processingResult')) return { ignored: 'event not selected' };
	return { item: settings.includeRaw ? { ...item, raw: value } : item };
}

/**
 * A receipt without a NotifyId is signed MD5(Success + secret): one value per account, so one
 * seen is enough to forge any number of them. Refused unless the owner lets them through.
 */
function assertLinkedReceipt(fields: FormFields, settings: TriggerSettings): void {
	if (!settings.verifySignature || settings.acceptUnlinkedReceipts) return;
	if ((fields.get('SMS-NotifyId') ?? '') === '') {
		throw unauthorized('delivery receipt without SMS-NotifyId: its signature is the same for every such receipt');
	}
}

function formItem(recipe: FormRecipe, fields: FormFields, settings: TriggerSettings): IDataObject {
	if (recipe === 'message') {
		const item = messageItem(fields, settings);
		item.verified = settings.verifySignature;
		return item;
	}
	const item = receiptItem(fields);
	const unlinked = item.notifyId === null;
	item.verified = settings.verifySignature && !unlinked;
	if (unlinked && settings.verifySignature) item.hint = UNLINKED_RECEIPT_HINT;
	return item;
}

async function formRelay(fields: FormFields, settings: TriggerSettings, access: RelayAccess) {
	const recipe = formRecipeOf(fields);
	if (recipe === 'receipt') assertLinkedReceipt(fields, settings);
	if (settings.verifySignature) await verifyFormRelay(recipe, fields, access);
	const item = formItem(recipe, fields, settings);

	// A STOP reply is an opt-out: it follows the Opt-Out selection, never the Inbound one.
	const emitted = item.event as FormRelayEvent;
	if (!settings.events.includes(emitted)) return { ignored: 'event not selected' };
	if (emitted === 'inbound' && !keywordMatches(settings.keywords, String(item.text))) {
		return { ignored: 'keyword not matched' };
	}
	// A spread copies `__proto__` as an own data property, not as the prototype.
	if (settings.includeRaw) item.raw = { ...fields.raw };
	return { item };
}

/**
 * Decides what one relay becomes. The signature (or URL token) is checked first, over only
 * the fields it covers; the rest is parsed and validated after. Only signed fields decide the
 * event and keyword; unsigned ones are delivered under `unverified`. Problems throw a
 * RelayRejection (400/401); events the user did not select and inbound messages that miss the
 * keyword filter are ignored; everything else is one output item.
 */
export async function handleRelay(
	body: RelayBody,
	settings: TriggerSettings,
	access: RelayAccess,
): Promise<RelayOutcome> {
	if (body.kind === 'json') return await processingResult(body.value, settings, access);
	return await formRelay(body.fields, settings, access);
}
