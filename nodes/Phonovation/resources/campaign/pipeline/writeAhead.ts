// The write-ahead record: a request is recorded as unconfirmed before it goes, then as its answer says.
import { Ledger, type Recorded } from './ledger';
import type { BatchOutcome } from './posting';
import type { CampaignRecipients } from './recipients';
import { ByteWriter } from './requestBody';

/** What a user is told to do about a request that may have gone. */
export const UNCONFIRMED_ADVICE = "check the provider's report before sending these numbers again";

/** Where records are kept: `record` returns the key to write the same record again under. */
export interface RecordStore<T> {
	record(entry: T, key?: string): string;
	forget(key: string): void;
}

/**
 * A record written before its request goes, as unconfirmed, and replaced by what the answer says;
 * a proven refusal removes it. n8n saves the node context when an execution is stopped or times
 * out, without waiting for the node, so a Retry finds the request unconfirmed and never posts it
 * again. The campaign's batches and the legacy send's messages are recorded this way.
 */
export class WriteAhead<T> {
	private key?: string;

	constructor(private readonly store: RecordStore<T>) {}

	ahead(entry: T): void {
		this.key = this.store.record(entry, this.key);
	}

	/** The provider answered: its record, or none for a proven refusal. */
	settle(entry: T | undefined): void {
		if (entry) this.store.record(entry, this.key);
		else if (this.key) this.store.forget(this.key);
		this.key = undefined;
	}

	refused(): void {
		this.settle(undefined);
	}
}

type BatchRecord = Recorded & { body: string; who: string };

/** The recipients a batch posts: who the record says it texted is written from them when needed. */
export interface BatchRecipients {
	columns: CampaignRecipients;
	entries: Int32Array;
	duplicates: Map<string, number[]> | undefined;
}

/** A campaign batch's record in the Ledger, written ahead with the body it posts and who it texts. */
export class BatchWriteAhead extends WriteAhead<BatchRecord> {
	/** Written once, when first needed: for a batch a rule stops before it goes, never. */
	private whoText?: string;

	constructor(
		ledger: Ledger,
		private readonly recipients: BatchRecipients,
	) {
		super(ledger);
	}

	private get who(): string {
		const { columns, entries, duplicates } = this.recipients;
		return (this.whoText ??= whoOf(columns, entries, duplicates));
	}

	aheadOf(fingerprint: string): void {
		const reason =
			'posted, but no answer was recorded (the execution was stopped, timed out or ended while waiting for it)';
		this.ahead({
			state: 'unconfirmed',
			reason: `${reason}; ${UNCONFIRMED_ADVICE}`,
			body: fingerprint,
			who: this.who,
		});
	}

	/** What the provider's answer to the body posted makes the record: none for a proven refusal. */
	recordOf(outcome: BatchOutcome, body: string): BatchRecord | undefined {
		if (outcome.state === 'accepted')
			return {
				state: 'accepted',
				message: outcome.message,
				errors: outcome.errors,
				body,
				who: this.who,
			};
		if (outcome.state === 'unconfirmed')
			return { state: 'unconfirmed', reason: outcome.reason, body, who: this.who };
		return undefined;
	}
}

/**
 * Items that also listed a number of this campaign, skipped as duplicates: they are recorded with
 * it, so a retry that groups items otherwise (and makes one of them the first) still knows it was sent.
 */
export function duplicatesOf(columns: CampaignRecipients): Map<string, number[]> | undefined {
	let duplicates: Map<string, number[]> | undefined;
	for (const [entry, skip] of columns.skips) {
		const msisdn = columns.msisdn(entry);
		if (skip.kind !== 'duplicate' || !msisdn) continue;
		duplicates ??= new Map();
		const items = duplicates.get(msisdn);
		if (items) items.push(columns.itemIndex(entry));
		else duplicates.set(msisdn, [columns.itemIndex(entry)]);
	}
	return duplicates;
}

/**
 * Who a posted batch texted, for the record: each recipient as its item (`Ledger.recipientKey`),
 * then as every item that listed it too (`Ledger.duplicateKey`), one per line. Written as bytes
 * and read as one Latin-1 string: no string per recipient, and a long one is kept outside V8's heap.
 */
export function whoOf(
	columns: CampaignRecipients,
	entries: Int32Array,
	duplicates: Map<string, number[]> | undefined,
): string {
	const out = new ByteWriter(entries.length * 16);
	for (let i = 0; i < entries.length; i++) {
		const entry = entries[i];
		if (i > 0) out.ascii('\n');
		// Ledger.recipientKey, written without a string per recipient.
		out.decimal(columns.itemIndex(entry));
		out.ascii(':');
		out.ascii(columns.msisdn(entry)!);
	}
	if (duplicates) {
		for (let i = 0; i < entries.length; i++) {
			const msisdn = columns.msisdn(entries[i])!;
			const others = duplicates.get(msisdn);
			if (!others) continue;
			for (let o = 0; o < others.length; o++) {
				out.ascii('\n');
				out.ascii(Ledger.duplicateKey(others[o], msisdn));
			}
		}
	}
	return out.done().toString('latin1');
}
