// A campaign's recipients kept in columns, not an object per number, and a compact set of numbers.
/**
 * A campaign's recipients in columns rather than one object per number: at 400,000 numbers an
 * object each (plus the maps and arrays built from them) was most of the node's memory. Each
 * number of each item of a campaign is an entry; per entry only its normalised number is a
 * string (the same string the output lists), the rest are typed arrays outside V8's heap and
 * sparse maps for the few entries that are skipped.
 */

/** Why a recipient is not sent; decided while planning, reported as its status. */
export interface Skip {
	kind: 'invalid' | 'excluded' | 'duplicate' | 'undeliverable';
	reason: string;
}

/** An input item of a campaign: its numbers are the entries `first` to `first + inputs.length - 1`. */
export interface EntryOwner {
	readonly itemIndex: number;
	/** The Notify ID every one of its recipients carries. */
	readonly notifyId: string | null;
	/** Its numbers as written, one per entry. */
	readonly inputs: readonly string[];
	readonly first: number;
}

/** What every version of a campaign's plan shares: each entry's number and item. */
export class NumberColumns {
	/** Entry → the item that listed it (an index into `owners`). */
	readonly ownerOf: Int32Array;

	constructor(
		readonly owners: readonly EntryOwner[],
		/** Entry → its normalised number, or null when it is not one. */
		readonly msisdns: ReadonlyArray<string | null>,
	) {
		this.ownerOf = new Int32Array(msisdns.length);
		owners.forEach((owner, o) =>
			this.ownerOf.fill(o, owner.first, owner.first + owner.inputs.length),
		);
	}

	get size(): number {
		return this.msisdns.length;
	}

	owner(entry: number): EntryOwner {
		return this.owners[this.ownerOf[entry]];
	}
}

/** One version of a campaign's recipients: the numbers, which entries are skipped and the send order. */
export class CampaignRecipients {
	/** Entry → its position in the send order, -1 when it is not sent (none when nothing is sent). */
	private readonly positions?: Int32Array;

	constructor(
		readonly numbers: NumberColumns,
		readonly skips: ReadonlyMap<number, Skip>,
		/** Position → entry: the numbers to send, in order, each once. */
		readonly order: Int32Array,
	) {
		if (order.length === 0) return;
		this.positions = new Int32Array(numbers.size).fill(-1);
		for (let p = 0; p < order.length; p++) this.positions[order[p]] = p;
	}

	get sending(): number {
		return this.order.length;
	}

	msisdn(entry: number): string | null {
		return this.numbers.msisdns[entry];
	}

	input(entry: number): string {
		const owner = this.numbers.owner(entry);
		return owner.inputs[entry - owner.first];
	}

	notifyId(entry: number): string | null {
		return this.numbers.owner(entry).notifyId;
	}

	itemIndex(entry: number): number {
		return this.numbers.owner(entry).itemIndex;
	}

	skip(entry: number): Skip | undefined {
		return this.skips.size === 0 ? undefined : this.skips.get(entry);
	}

	position(entry: number): number | undefined {
		const position = this.positions?.[entry] ?? -1;
		return position < 0 ? undefined : position;
	}

	/** The entries of batch `index` of batches of `size`, in send order (a view, no copy). */
	batch(index: number, size: number): Int32Array {
		return this.order.subarray(index * size, Math.min((index + 1) * size, this.order.length));
	}
}

/** FNV-1a over a number's characters: the numbers are digits, so no allocation is needed to hash them. */
function hashOf(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
	return hash >>> 0;
}

/**
 * A set of entries by their number, with open addressing in one typed array (outside V8's heap):
 * a Map of 400,000 strings costs tens of megabytes and rehashes as it grows.
 */
export class NumberSet {
	private readonly slots: Int32Array;

	private readonly mask: number;

	constructor(
		private readonly msisdns: ReadonlyArray<string | null>,
		expected: number,
	) {
		let capacity = 16;
		while (capacity < expected * 2) capacity *= 2;
		this.slots = new Int32Array(capacity).fill(-1);
		this.mask = capacity - 1;
	}

	/** Adds the entry; when its number is already there, returns the entry that holds it (and adds nothing), else -1. */
	addOrFind(entry: number): number {
		const msisdn = this.msisdns[entry]!;
		for (let slot = hashOf(msisdn) & this.mask; ; slot = (slot + 1) & this.mask) {
			const held = this.slots[slot];
			if (held === -1) {
				this.slots[slot] = entry;
				return -1;
			}
			if (this.msisdns[held] === msisdn) return held;
		}
	}
}
