import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

/**
 * n8n's store of processed items (what Remove Duplicates and `helpers.checkProcessedAndRecord`
 * use) as n8n's own DeduplicationHelper keeps it in its database, in memory: one list per
 * workflow and scope, in the order recorded, trimmed from the oldest to `maxEntries`.
 */
export class InMemoryProcessedData implements IDataDeduplicator {
	readonly lists = new Map<string, { mode: string; data: string[] }>();

	private static key(scope: DeduplicationScope, { workflow, node }: ICheckProcessedContextData) {
		if (scope === 'node' && !node) throw new Error("No node information: cannot use scope 'node'");
		return `${workflow.id} ${scope === 'node' ? `n:${node!.id}` : ''}`;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		if (options.mode !== 'entries') throw new Error('only the entries mode is kept here');
		const key = InMemoryProcessedData.key(scope, contextData);
		const list = this.lists.get(key) ?? { mode: options.mode, data: [] };
		if (list.mode !== options.mode) throw new Error('recorded with another mode');
		const out: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const value = String(item);
			if (list.data.includes(value)) out.processed.push(item);
			else {
				out.new.push(item);
				list.data.push(value);
			}
		}
		if (options.maxEntries) list.data.splice(0, list.data.length - options.maxEntries);
		this.lists.set(key, list);
		return await Promise.resolve(out);
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		const list = this.lists.get(InMemoryProcessedData.key(scope, contextData));
		if (list) list.data = list.data.filter((value) => !items.map(String).includes(value));
		await Promise.resolve();
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.lists.delete(InMemoryProcessedData.key(scope, contextData));
		await Promise.resolve();
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<number> {
		return await Promise.resolve(
			this.lists.get(InMemoryProcessedData.key(scope, contextData))?.data.length ?? 0,
		);
	}
}

let store: InMemoryProcessedData | undefined;

/** The test file's one store, set up as n8n sets up its own at start (once per process). */
export async function processedData(): Promise<InMemoryProcessedData> {
	if (!store) {
		store = new InMemoryProcessedData();
		await DataDeduplicationService.init(store);
	}
	return store;
}
