// The legacy sends this execution made, by item and number: a retry never posts a message again.
import type { IContextObject, IDataObject } from 'n8n-workflow';
import { remembered } from '../../runMemory';

/**
 * Legacy sends made in this execution, by input item and number, kept in
 * n8n's node context like the campaign ledger: Retry On Fail and an execution Retry never post an
 * item's message again. `unknown`: the request may have reached the provider (no answer).
 */
export class SentLedger {
	private readonly sends: Record<string, IDataObject>;

	/**
	 * Whether this node's record for this run existed before this attempt (an attempt or a failed execution before it).
	 */
	readonly started: boolean;

	constructor(nodeContext: IContextObject, runIndex: number) {
		const runs = remembered<Record<string, IDataObject>>(nodeContext, 'legacySends');
		this.started = runs[runIndex] !== undefined;
		this.sends = runs[runIndex] ??= {};
	}

	/**
	 * An item's send, by its item and number only: a text holding `{{ $now }}` or a Notify ID of
	 * `{{ $execution.id }}` gives another form on every attempt, and must not make it new.
	 */
	static key(itemIndex: number, to: string): string {
		return `${itemIndex}:${to}`;
	}

	get(key: string): IDataObject | undefined {
		return Object.prototype.hasOwnProperty.call(this.sends, key) ? this.sends[key] : undefined;
	}

	record(key: string, outcome: IDataObject): void {
		this.sends[key] = outcome;
	}

	/** Removes a record written ahead of a request that was then provably refused. */
	forget(key: string): void {
		delete this.sends[key];
	}
}
