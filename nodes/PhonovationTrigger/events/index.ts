// The event registry: the trigger's events, the Events option made from them, relays classified.
/**
 * The event registry: every event the trigger knows, in the order a new trigger selects them.
 * The Events option, its default, the events' notices and the classification of each verified
 * relay come from it; adding an event is a module beside this one and a line in EVENTS.
 */

import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { badRequest } from '../incoming/rejection';
import type { VerifiedRelay } from '../verification/verifyRelay';

import { deliveryReceipt } from './deliveryReceipt';
import type { ClassifySettings, RelayEventModule } from './event';
import { inbound } from './inbound';
import { optIn } from './optIn';
import { optOut } from './optOut';
import { processingResult } from './processingResult';

export type { ClassifySettings, FilterSettings, RelayEventModule } from './event';

export const EVENTS = [inbound, optOut, optIn, deliveryReceipt, processingResult] as const;

export type RelayEvent = (typeof EVENTS)[number]['value'];

/** The Events option's entries, by name as n8n lists options. */
export function eventOptions(): INodePropertyOptions[] {
	return [...EVENTS]
		.sort((a, b) => a.name.localeCompare(b.name))
		.map(({ name, value, description }) => ({ name, value, description }));
}

/** The events' own notices, in registry order: fresh copies for each node description. */
export function eventNotices(): INodeProperties[] {
	return EVENTS.flatMap((event) => structuredClone([...(event.notices ?? [])]));
}

/** The events a new trigger starts with. */
export function defaultEvents(): RelayEvent[] {
	return EVENTS.filter((event) => event.selectedByDefault).map((event) => event.value);
}

interface ClassifiedRelay {
	event: RelayEventModule<RelayEvent>;
	/** Builds the event's item; refuses (400) a field it cannot read. */
	build: () => IDataObject;
}

/** The event a verified relay is: the one whose claim it answers (claims never overlap). */
export function classify(relay: VerifiedRelay, settings: ClassifySettings): ClassifiedRelay {
	for (const event of EVENTS) {
		const build = event.claim(relay, settings);
		if (build !== null) return { event, build };
	}
	// Every way a relay is authenticated is some event's: a receipt, a message (opt-out or inbound), a token's JSON.
	throw badRequest('No event claims this relay');
}
