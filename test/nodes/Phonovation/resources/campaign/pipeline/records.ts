import type { Skip } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/plan';
import {
	CampaignRecipients,
	NumberColumns,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/recipients';

/** One number of one item as a record: what a test compares, read from a campaign's columns. */
export interface RecipientRecord {
	readonly input: string;
	readonly msisdn: string | null;
	readonly notifyId: string | null;
	readonly skip?: Skip;
	/** Index in the campaign's send order; its batch is `position / batchSize`. */
	readonly position?: number;
}

/** An entry of the columns as a record. */
export function recordOf(recipients: CampaignRecipients, entry: number): RecipientRecord {
	const record: { -readonly [K in keyof RecipientRecord]: RecipientRecord[K] } = {
		input: recipients.input(entry),
		msisdn: recipients.msisdn(entry),
		notifyId: recipients.notifyId(entry),
	};
	const skip = recipients.skip(entry);
	if (skip) record.skip = skip;
	const position = recipients.position(entry);
	if (position !== undefined) record.position = position;
	return record;
}

/** Numbers with their Notify IDs as one batch of columns (each number its own item), all to be sent in order. */
export function batchOf(records: ReadonlyArray<{ msisdn: string; notifyId: string | null }>): {
	columns: CampaignRecipients;
	entries: Int32Array;
} {
	const owners = records.map((r, i) => ({
		itemIndex: i,
		notifyId: r.notifyId,
		inputs: [r.msisdn],
		first: i,
	}));
	const order = Int32Array.from(records, (_, i) => i);
	const columns = new CampaignRecipients(
		new NumberColumns(
			owners,
			records.map((r) => r.msisdn),
		),
		new Map(),
		order,
	);
	return { columns, entries: order };
}
