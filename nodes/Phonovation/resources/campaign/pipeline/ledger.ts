import { createHash } from 'crypto';
import type { IContextObject } from 'n8n-workflow';

/** What the provider said to a batch posted earlier in this execution. */
export type Recorded =
	| { state: 'accepted'; message: string | null; errors: string[] }
	| { state: 'unconfirmed'; reason: string };

/**
 * Batches posted in this execution, by a fingerprint of their exact request body, kept in n8n's
 * node context. n8n keeps that context across Retry On Fail and saves it with a failed execution,
 * so a Retry of the execution sees it too: a batch recorded here is never posted again. Records are
 * per run of the node (a loop that runs the node again is a new run and sends again).
 */
export class Ledger {
	private readonly batches: Record<string, Recorded>;
	private readonly facts: IContextObject;

	/**
	 * The moment the first attempt of this run planned its campaigns. A retry plans with it too, so
	 * whatever depends on the clock (a Quiet Hours send time) gives the same request bodies.
	 */
	readonly moment: Date;

	constructor(nodeContext: IContextObject, runIndex: number, now: Date) {
		const runs = (nodeContext.phonovationBatches ??= {}) as Record<string, Record<string, Recorded>>;
		this.batches = runs[runIndex] ??= {};
		const moments = (nodeContext.phonovationMoments ??= {}) as Record<string, string>;
		this.moment = new Date((moments[runIndex] ??= now.toISOString()));
		const facts = (nodeContext.phonovationFacts ??= {}) as Record<string, IContextObject>;
		this.facts = facts[runIndex] ??= {};
	}

	static fingerprint(body: Buffer): string {
		return createHash('sha256').update(body).digest('base64');
	}

	/**
	 * What the first attempt of this run learned once (e.g. the account's sender list, or that it
	 * could not be read), so a retry plans the same campaigns and batches. `learn` runs only when
	 * nothing is recorded yet; a failure it throws is not recorded.
	 */
	async once<T>(name: string, learn: () => Promise<T>): Promise<T> {
		const known = this.facts[name] as T | undefined;
		if (known !== undefined) return known;
		const value = await learn();
		this.facts[name] = value as unknown as IContextObject[string];
		return value;
	}

	get(fingerprint: string): Recorded | undefined {
		return Object.prototype.hasOwnProperty.call(this.batches, fingerprint) ? this.batches[fingerprint] : undefined;
	}

	record(fingerprint: string, outcome: Recorded): void {
		this.batches[fingerprint] = outcome;
	}
}
