import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { INBOX_PROTOCOL } from '../../nodes/Phonovation/resources/conversation/inboxWorkflow';
import type { Engine } from './engine';

/** The id the tests give the Question Log workflow (the node parameter as the editor saves it). */
export const QUESTION_LOG_ID = 'question-log';
export const QUESTION_LOG = { __rl: true, mode: 'list', value: QUESTION_LOG_ID };

/**
 * The Question Log the inbox example is, as the engine runs it by id: one row per reference
 * (upsert), found again by phone or by reference, marked with the relay that settled it. `fail`
 * makes it fail as a missing Data Table would.
 */
export class QuestionLog {
	readonly rows = new Map<string, IDataObject>();

	fail: Error | null = null;

	/** Columns the user's Data Table lacks: writing one fails, as the Data Table node does. */
	missingColumns: string[] = [];

	/** How the Data Table stores a row (a column typed as a number, say). */
	storeAs: (row: IDataObject) => IDataObject = (row) => row;

	/** Every call, as the node made it. */
	readonly calls: IDataObject[] = [];

	constructor(engine: Engine) {
		engine.subWorkflows.set(QUESTION_LOG_ID, async (items) => await this.run(items));
	}

	/** The inbox's `messages` Data Table: each text in and reply out, in insertion order. */
	readonly messages: IDataObject[] = [];

	/** Rows written so far: the next row's number (`seq`). */
	private written = 0;

	/** Waited on before a message row is written, and after (a slow Data Table, a busy worker). */
	beforeWrite: (call: IDataObject) => Promise<void> = async () => {};
	afterWrite: (call: IDataObject) => Promise<void> = async () => {};

	/** The protocol the inbox says it speaks on each item it hands back; null: an inbox from before the handshake. */
	speaks: number | null = INBOX_PROTOCOL;

	/** A row written as the inbox writes it (for a history the test sets up), with its row number. */
	seed(row: IDataObject): void {
		this.messages.push({ arrivedAt: '', turn: '', ...row, seq: ++this.written });
	}

	private async run(items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		const answer = await this.answer(items);
		// As the inbox's last node: every item marked with the protocol it speaks.
		return this.speaks === null
			? answer
			: answer.map(({ json }) => ({ json: { ...json, inboxProtocol: this.speaks } }));
	}

	private async answer(items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		const input = items[0]?.json ?? {};
		this.calls.push(input);
		if (this.fail) throw this.fail;
		const answer = (rows: IDataObject[]) =>
			rows.length ? rows.map((row) => ({ json: { ...row } })) : [{ json: {} }];
		// As the inbox: the person's rows of the last 24 hours, and the first row ever logged with the
		// relay's key (any number, however old; it may be one of the person's rows again).
		const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
		const ofPhone = () =>
			this.messages.filter((row) => row.phone === input.phone && String(row.at) >= dayAgo);
		const firstOfKey = () =>
			input.key ? this.messages.filter((row) => row.key === input.key).slice(0, 1) : [];
		const ofPersonOrKey = () => [
			...this.messages.filter((row) => row.phone === input.phone && String(row.at) >= dayAgo),
			...firstOfKey(),
		];
		if (input.action === 'converse') {
			const { kind, phone, key, text, at, arrivedAt, id, turn } = input;
			await this.beforeWrite(input);
			// seq: the Data Table's own row number, in the order rows are written.
			this.messages.push({ kind, phone, key, text, at, arrivedAt, id, turn, seq: ++this.written });
			await this.afterWrite(input);
			return answer(ofPersonOrKey());
		}
		if (input.action === 'seen') {
			// As the inbox's Mark Seen (an upsert): the number's row of the key keeps its place.
			const { phone, key, at, id } = input;
			await this.beforeWrite(input);
			const own = this.messages.find(
				(row) => row.kind === 'seen' && row.key === key && row.phone === phone,
			);
			if (own) Object.assign(own, { at, id });
			else
				this.messages.push({
					kind: 'seen',
					phone,
					key,
					text: '',
					at,
					arrivedAt: '',
					id,
					turn: '',
					seq: ++this.written,
				});
			await this.afterWrite(input);
			return answer(ofPersonOrKey());
		}
		if (input.action === 'conversation') return answer(ofPersonOrKey());
		if (input.action === 'claim') {
			// As the Data Table's update: only texts still free, logged up to upTo.
			for (const row of ofPhone())
				if (row.kind === 'in' && !row.turn && String(row.at) <= String(input.upTo))
					row.turn = input.turn;
			return answer(ofPhone().filter((row) => row.turn === input.turn));
		}
		if (input.action === 'settle') {
			if (this.missingColumns.includes('settledBy'))
				throw new Error("unknown column name 'settledBy'");
			// As the Data Table's update: every row with the reference.
			const rows = [...this.rows.values()].filter((row) => row.reference === input.reference);
			for (const row of rows) row.settledBy = input.settledBy;
			return rows.length ? rows.map((json) => ({ json })) : [{ json: {} }];
		}
		if (input.action === 'record') {
			const { action: _action, ...row } = input;
			const stored = this.storeAs(row);
			this.rows.set(String(row.reference), stored);
			return [{ json: stored }];
		}
		// As the inbox's Find Questions: by number, by reference, or settled by this signed text.
		const found = [...this.rows.values()].filter(
			(row) =>
				row.phone === input.phone ||
				(input.reference !== '' && row.reference === input.reference) ||
				(!!input.settled && String(row.settledBy ?? '').includes(String(input.settled))),
		);
		return found.length ? found.map((json) => ({ json })) : [{ json: {} }];
	}

	clear(): void {
		this.rows.clear();
		this.messages.length = 0;
		this.calls.length = 0;
		this.fail = null;
		this.missingColumns = [];
		this.speaks = INBOX_PROTOCOL;
		this.storeAs = (row) => row;
		this.beforeWrite = async () => {};
		this.afterWrite = async () => {};
	}
}
