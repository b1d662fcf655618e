import type { IDataObject } from 'n8n-workflow';

import { secretsMatch, verifyInboundSignature, verifyReceiptSignature } from './relaySignature';
import type { FormRelayEvent, RelayEvent } from './events';
import { assertProcessingResult, formEventOf } from './events';
import type { FormFields } from './formBody';
import { keywordMatches } from './keywords';
import { inboundItem, processingResultItem, receiptItem } from './relayItems';
import { unauthorized } from './rejection';
import type { RelayBody } from './requestBody';

export interface TriggerSettings {
	events: RelayEvent[];
	/** Upper-case keywords; empty means no filter. */
	keywords: string[];
	verifySignature: boolean;
	/** Required as `?token=` on processing results; empty refuses them. */
	token: string;
	includeRaw: boolean;
}

export interface RelayAccess {
	/** The `token` query parameter as n8n parsed it (a string, an array or absent). */
	queryToken: unknown;
	/** The credential's relay secret; `undefined` when the credential has none. */
	relaySecret: () => Promise<string | undefined>;
}

/** Either an item to start the workflow with, or why the relay is acknowledged but ignored. */
export type RelayOutcome = { item: IDataObject } | { ignored: string };

async function verifyFormRelay(event: FormRelayEvent, fields: FormFields, access: RelayAccess) {
	const secret = await access.relaySecret();
	if (!secret) {
		throw unauthorized(
			'Cannot verify the relay: the Phonovation credential has no Relay Secret. Add it to the credential or turn off Verify Signature.',
		);
	}
	const verify = fields.get('SMS-Verify')?.trim() ?? '';
	if (verify === '') throw unauthorized('Missing SMS-Verify signature');
	const genuine =
		event === 'deliveryReceipt'
			? verifyReceiptSignature(
					{ notifyId: fields.get('SMS-NotifyId') ?? '', success: fields.get('SMS-Success') ?? '', verify },
					secret,
				)
			: verifyInboundSignature(
					{ from: fields.get('SMS-From') ?? '', content: fields.get('SMS-Content') ?? '', verify },
					secret,
				);
	if (!genuine) throw unauthorized('Invalid SMS-Verify signature');
}

function checkToken(expected: string, received: unknown): void {
	if (expected === '') {
		throw unauthorized(
			'Processing results carry no signature: set the trigger\'s URL Token option and add ?token=YOUR_TOKEN to the URL given to Phonovation',
		);
	}
	if (typeof received !== 'string' || !secretsMatch(expected, received)) {
		throw unauthorized('Missing or invalid token');
	}
}

/**
 * Decides what one relay becomes: validation problems and bad signatures throw a
 * RelayRejection (400/401); events the user did not select and inbound messages that miss the
 * keyword filter are ignored; everything else is one output item.
 */
export async function handleRelay(
	body: RelayBody,
	settings: TriggerSettings,
	access: RelayAccess,
): Promise<RelayOutcome> {
	if (body.kind === 'json') {
		assertProcessingResult(body.value);
		const item = processingResultItem(body.value);
		checkToken(settings.token, access.queryToken);
		if (!settings.events.includes('processingResult')) return { ignored: 'event not selected' };
		return { item: settings.includeRaw ? { ...item, raw: body.value } : item };
	}

	const { fields } = body;
	const event = formEventOf(fields);
	const item = event === 'deliveryReceipt' ? receiptItem(fields) : inboundItem(event, fields);
	if (settings.verifySignature) await verifyFormRelay(event, fields, access);
	item.verified = settings.verifySignature;

	if (!settings.events.includes(event)) return { ignored: 'event not selected' };
	if (
		event === 'inbound' &&
		!keywordMatches(settings.keywords, fields.get('SMS-Keyphrase'), String(item.text))
	) {
		return { ignored: 'keyword not matched' };
	}
	if (settings.includeRaw) item.raw = { ...fields.raw };
	return { item };
}
