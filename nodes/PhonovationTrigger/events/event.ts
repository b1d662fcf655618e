// What an event module holds: its Events entry, its claim on a verified relay, its item builder.
/**
 * What an event module holds: its entry in the Events option (and any notice of its own), its
 * claim on a verified relay and the builder of its item. Adding an event is one such module and
 * one line in index.ts.
 */

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { VerifiedRelay } from '../verification/verifyRelay';

/** What deciding the event needs. */
export interface ClassifySettings {
	/** Whether a reply whose whole text is a stop word is an opt-out rather than an inbound message. */
	stopReplies: boolean;
	/** Whether the Opt-In event is selected: a start word is then an opt-in, else an inbound message. */
	optIns: boolean;
}

/** What filtering a selected event's items needs. */
export interface FilterSettings {
	/** Upper-case keywords; empty means no filter. */
	keywords: string[];
}

export interface RelayEventModule<Event extends string = string> {
	/** Stored in the Events option and given as the item's `event`. */
	readonly value: Event;
	/** Its name and description in the Events option. */
	readonly name: string;
	readonly description: string;
	/** Whether a new trigger starts with it selected. */
	readonly selectedByDefault: boolean;
	/** Notices the node shows below the Events option, e.g. while this event is selected. */
	readonly notices?: readonly INodeProperties[];
	/**
	 * This event's item builder when a verified relay is this event, else null. Claims read only
	 * what decides the event, never throw and never overlap: every relay is one event. The builder
	 * refuses (400) a field it cannot read; what verification proved is added to its item after.
	 */
	claim(relay: VerifiedRelay, settings: ClassifySettings): (() => IDataObject) | null;
	/** Why one of its items is acknowledged but ignored although the event is selected, else null. */
	ignores?(item: IDataObject, settings: FilterSettings): string | null;
}
