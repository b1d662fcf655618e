// The execution's record of the batches posted and who they texted: a retry never posts them again.
import { createHash } from 'crypto';
import type { IContextObject } from 'n8n-workflow';
import { remembered, rememberedFor } from '../../../runMemory';

/** What the provider said to a batch posted earlier in this execution, and the body it was said to. */
export type Recorded = (
	| { state: 'accepted'; message: string | null; errors: string[] }
	| { state: 'unconfirmed'; reason: string }
) & {
	/** Fingerprint of the exact body posted, to tell a retry whose expressions now give other values. */
	body?: string;
	/** Who the batch texted: `item:msisdn` per recipient, one per line (see `Ledger.recipientKey`). */
	who?: string;
};

/**
 * Batches posted in this execution, kept in n8n's node context. n8n keeps that context across
 * Retry On Fail and saves it with a failed execution, so a Retry of the execution sees it too.
 * It records who was texted (each recipient as its input item and number), not how the body
 * looked: a text holding `{{ $now }}` or a Notify ID of `{{ $execution.id }}` gives a new body on
 * every attempt, and may even group items into other campaigns; a recipient recorded here is
 * still never posted again. Records are per run of the node (a loop that runs the node again is
 * a new run and sends again).
 */
export class Ledger {
	private readonly batches: Record<string, Recorded>;
	private readonly facts: IContextObject;
	/** Each recorded recipient's record, built on first use (only a retry has any). */
	private byRecipient?: Map<string, Recorded>;

	/**
	 * Whether an earlier attempt of this run had recorded anything when this attempt began. What
	 * this attempt records names only numbers it posts, each once, so only a retry needs look-ups.
	 */
	readonly retrying: boolean;

	/**
	 * Whether this node's record for this run existed before this attempt (an attempt or a failed execution before it).
	 */
	readonly started: boolean;

	constructor(nodeContext: IContextObject, runIndex: number) {
		this.started = rememberedFor(nodeContext, 'campaignFacts', runIndex);
		const runs = remembered<Record<string, Recorded>>(nodeContext, 'campaignBatches');
		this.batches = runs[runIndex] ??= {};
		const facts = remembered<IContextObject>(nodeContext, 'campaignFacts');
		this.facts = facts[runIndex] ??= {};
		this.retrying = !this.isEmpty;
	}

	/** One recipient as the ledger knows it: its input item and its number. */
	static recipientKey(itemIndex: number, msisdn: string): string {
		return `${itemIndex}:${msisdn}`;
	}

	/** A number texted for another item that this item listed too (it was a duplicate then). */
	static duplicateKey(itemIndex: number, msisdn: string): string {
		return `d${Ledger.recipientKey(itemIndex, msisdn)}`;
	}

	/** Whether an earlier attempt of this run recorded anything (the first attempt skips all look-ups). */
	get isEmpty(): boolean {
		for (const _ in this.batches) return false;
		return true;
	}

	/** The record of the batch that texted this recipient in an earlier attempt of this run. */
	recipient(key: string): Recorded | undefined {
		if (!this.byRecipient) {
			this.byRecipient = new Map();
			for (const record of Object.values(this.batches)) {
				for (const who of record.who?.split('\n') ?? []) this.byRecipient.set(who, record);
			}
		}
		return this.byRecipient.get(key);
	}

	static fingerprint(body: Buffer): string {
		return createHash('sha256').update(body).digest('base64');
	}

	/**
	 * What the first attempt of this run learned as `name` (e.g. the account's sender list), so a
	 * retry plans the same campaigns and batches; on the first attempt, `value`, recorded.
	 */
	firstLearned<T>(name: string, value: T): T {
		const known = this.recall<T>(name);
		if (known !== undefined) return known;
		this.facts[name] = value as unknown as IContextObject[string];
		return value;
	}

	/**
	 * When the first attempt of this run planned. A retry checks Send At against it, so a batch
	 * the first attempt already posted is still reported, not refused as planned in the past;
	 * every request is judged against the clock again as it is posted.
	 */
	firstPlanned(now: Date): Date {
		const known = this.recall<string>('plannedAt');
		if (known !== undefined) return new Date(known);
		this.facts.plannedAt = now.toISOString();
		return now;
	}

	/** What an earlier attempt of this run learned as `name`, if anything. */
	recall<T>(name: string): T | undefined {
		return Object.hasOwn(this.facts, name) ? (this.facts[name] as T) : undefined;
	}

	/** A whole batch recorded by an earlier version of this node, under its exact body. */
	byBody(bodyFingerprint: string): Recorded | undefined {
		return Object.hasOwn(this.batches, bodyFingerprint) ? this.batches[bodyFingerprint] : undefined;
	}

	/** Records a posted batch with who it texted (no recipient is in two batches of one run, so that names it). */
	/** `key`: what an earlier `record` of the same recipients returned (saves hashing them again). */
	record(
		outcome: Recorded & { body: string; who: string },
		key = `who:${createHash('sha256').update(outcome.who).digest('base64')}`,
	): string {
		this.batches[key] = outcome;
		if (this.byRecipient)
			for (const who of outcome.who.split('\n')) this.byRecipient.set(who, outcome);
		return key;
	}

	/** Every number a batch of this run was accepted for, each once (for an error that must name them). */
	acceptedNumbers(): string[] {
		const numbers = new Set<string>();
		for (const record of Object.values(this.batches)) {
			if (record.state !== 'accepted') continue;
			for (const who of record.who?.split('\n') ?? [])
				if (!who.startsWith('d')) numbers.add(who.slice(who.indexOf(':') + 1));
		}
		return [...numbers];
	}

	/** Removes a record written ahead of a request the provider then provably refused. */
	forget(key: string): void {
		const record = this.batches[key];
		if (!record) return;
		delete this.batches[key];
		if (this.byRecipient)
			for (const who of record.who?.split('\n') ?? [])
				if (this.byRecipient.get(who) === record) this.byRecipient.delete(who);
	}
}
