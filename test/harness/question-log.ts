import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Engine } from './engine';

/** The id the tests give the Question Log workflow (the node parameter as the editor saves it). */
export const QUESTION_LOG_ID = 'question-log';
export const QUESTION_LOG = { __rl: true, mode: 'list', value: QUESTION_LOG_ID };

/**
 * The workflow examples/question-log is, as the engine runs it by id: one row per reference
 * (upsert), found again by phone or by reference. `fail` makes it fail as a missing Data Table would.
 */
export class QuestionLog {
	readonly rows = new Map<string, IDataObject>();

	fail: Error | null = null;

	/** How the Data Table stores a row (a column typed as a number, say). */
	storeAs: (row: IDataObject) => IDataObject = (row) => row;

	/** Every call, as the node made it. */
	readonly calls: IDataObject[] = [];

	constructor(engine: Engine) {
		engine.subWorkflows.set(QUESTION_LOG_ID, async (items) => await this.run(items));
	}

	private async run(items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		const input = items[0]?.json ?? {};
		this.calls.push(input);
		if (this.fail) throw this.fail;
		if (input.action === 'record') {
			const { action: _action, ...row } = input;
			const stored = this.storeAs(row);
			this.rows.set(String(row.reference), stored);
			return [{ json: stored }];
		}
		const found = [...this.rows.values()].filter(
			(row) =>
				row.phone === input.phone || (input.reference !== '' && row.reference === input.reference),
		);
		return found.length ? found.map((json) => ({ json })) : [{ json: {} }];
	}

	clear(): void {
		this.rows.clear();
		this.calls.length = 0;
		this.fail = null;
		this.storeAs = (row) => row;
	}
}
