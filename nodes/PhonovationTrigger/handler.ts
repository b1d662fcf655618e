// One relay from request to outcome: read, verified, classified, made an item or ignored.
/**
 * One relay from request to outcome, top-down: read the body we received, verify what it proves,
 * let the event registry classify it, build the event's item and decide whether it starts the
 * workflow. Refusals are thrown as a RelayRejection (400, 401, 413) for the node to answer.
 */

import type { IDataObject } from 'n8n-workflow';

import type { ClassifySettings, FilterSettings, RelayEvent } from './events';
import { classify } from './events';
import type { RelayHttpRequest } from './incoming/readBody';
import { readRelayBody } from './incoming/readBody';
import type { RelayAccess, VerifiedRelay, VerifySettings } from './verification/verifyRelay';
import { verifyRelay } from './verification/verifyRelay';

export interface TriggerSettings extends VerifySettings, ClassifySettings, FilterSettings {
	events: RelayEvent[];
	includeRaw: boolean;
}

/** Either an item to start the workflow with, or why the relay is acknowledged but ignored. */
type RelayOutcome = { item: IDataObject } | { ignored: string };

/** The fields as received: a form's (a spread copies `__proto__` as a data property), a processing result's JSON. */
function rawOf(relay: VerifiedRelay): IDataObject {
	return relay.authenticatedBy === 'token' ? relay.value : { ...relay.fields.raw };
}

/**
 * Decides what one relay becomes. The signature (or URL token) is checked first, over only the
 * fields it covers; the rest is parsed and validated after. Only signed fields decide the event
 * and keyword; unsigned ones are delivered under `unverified`. Events the user did not select and
 * inbound messages that miss the keyword filter are ignored; everything else is one output item.
 */
export async function handleRelay(
	request: RelayHttpRequest,
	settings: TriggerSettings,
	access: RelayAccess,
): Promise<RelayOutcome> {
	const body = await readRelayBody(request);
	const relay = await verifyRelay(body, settings, access);
	const { event, build } = classify(relay, settings);
	const item = Object.assign(build(), relay.verification);
	// A STOP reply is an opt-out: it follows the Opt-Out selection, never the Inbound one.
	if (!settings.events.includes(event.value)) return { ignored: 'event not selected' };
	const ignored = event.ignores?.(item, settings) ?? null;
	if (ignored !== null) return { ignored };
	if (settings.includeRaw) item.raw = rawOf(relay);
	return { item };
}
