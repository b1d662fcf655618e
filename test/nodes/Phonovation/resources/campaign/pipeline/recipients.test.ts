import {
	recipientEntries,
	splitRecipients,
} from '../../../../../../nodes/Phonovation/domain/phoneNumbers';
import { planCampaigns } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/plan';
import {
	CampaignRecipients,
	NumberColumns,
	NumberSet,
	type Skip,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/recipients';
import { requestBody } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/requestBody';

import {
	optionSettings,
	readOptions,
} from '../../../../../../nodes/Phonovation/resources/campaign/options';

import { context, item } from './textRequests';
import { batchOf, recordOf } from './records';

/** Two items: item 3 lists two numbers, item 5 three (one invalid). */
function columns() {
	const owners = [
		{ itemIndex: 3, notifyId: 'a', inputs: ['0871000001', '0871000002'], first: 0 },
		{ itemIndex: 5, notifyId: null, inputs: ['0871000003', 'x', '0871000001'], first: 2 },
	];
	return new NumberColumns(owners, [
		'353871000001',
		'353871000002',
		'353871000003',
		null,
		'353871000001',
	]);
}

describe('recipient columns', () => {
	it("know each entry's item, number, written form and Notify ID without an object per entry", () => {
		const numbers = columns();
		const skips = new Map<number, Skip>([[3, { kind: 'invalid', reason: 'contains letters' }]]);
		const recipients = new CampaignRecipients(numbers, skips, Int32Array.from([2, 0, 1]));
		expect(Array.from(numbers.ownerOf)).toEqual([0, 0, 1, 1, 1]);
		expect([
			recipients.itemIndex(4),
			recipients.input(4),
			recipients.msisdn(4),
			recipients.notifyId(4),
		]).toEqual([5, '0871000001', '353871000001', null]);
		expect([
			recipients.position(2),
			recipients.position(0),
			recipients.position(1),
			recipients.position(3),
		]).toEqual([0, 1, 2, undefined]);
		expect(recipients.sending).toBe(3);
		expect(Array.from(recipients.batch(0, 2))).toEqual([2, 0]);
		expect(Array.from(recipients.batch(1, 2))).toEqual([1]);
		expect(recordOf(recipients, 3)).toEqual({
			input: 'x',
			msisdn: null,
			notifyId: null,
			skip: { kind: 'invalid', reason: 'contains letters' },
		});
		expect(recordOf(recipients, 0)).toEqual({
			input: '0871000001',
			msisdn: '353871000001',
			notifyId: 'a',
			position: 1,
		});
	});

	it('with nothing to send, no entry has a position', () => {
		const recipients = new CampaignRecipients(columns(), new Map(), new Int32Array(0));
		expect([0, 1, 2, 3, 4].map((entry) => recipients.position(entry))).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
		]);
	});

	it('write the same request body as the records they stand for', () => {
		const recipients = new CampaignRecipients(columns(), new Map(), Int32Array.from([0, 1, 2]));
		const settings = {
			from: 'Phonovation',
			text: 'Hi',
			sendAt: null,
			options: readOptions({}).values,
			given: optionSettings(readOptions({}).values),
			perRequest: 10,
			timeoutMs: 1000,
			rehearsal: false,
		};
		const records = [0, 1, 2].map(
			(entry) => recordOf(recipients, entry) as { msisdn: string; notifyId: string | null },
		);
		expect(
			requestBody(settings, { columns: recipients, entries: recipients.batch(0, 10) }).toString(
				'utf8',
			),
		).toBe(requestBody(settings, batchOf(records)).toString('utf8'));
	});
});

describe('NumberSet', () => {
	it('finds the first entry that holds a number, across many numbers and colliding slots', () => {
		const msisdns = Array.from(
			{ length: 20_000 },
			(_, i) => `3538${String(i % 10_000).padStart(8, '0')}`,
		);
		const set = new NumberSet(msisdns, msisdns.length);
		const found = msisdns.map((_, entry) => set.addOrFind(entry));
		expect(found.slice(0, 10_000).every((first) => first === -1)).toBe(true);
		expect(found.slice(10_000).every((first, i) => first === i)).toBe(true);
	});
});

describe('recipientEntries', () => {
	it('gives what splitRecipients gives, for lists it must split or tidy', () => {
		const values: unknown[] = [
			['0871', ' 0872 ', '0873'],
			['0871', '0872;0873'],
			['0871', ''],
			['0871', 353871000001],
			['0871', ['0872', '0873']],
			['0871', null, '0872'],
			'0871, 0872',
			['0871'],
			[],
		];
		for (const value of values) expect(recipientEntries(value)).toEqual(splitRecipients(value));
	});

	it('reads a list that is already one number per entry in place, without a copy', () => {
		const list = ['0871000001', '+353 87 100 0002', '0871000003'];
		expect(recipientEntries(list)).toBe(list);
	});
});

describe('a plan in columns', () => {
	it('keeps one string per number and sends each number once, across items, in order', () => {
		const many = Array.from({ length: 3_000 }, (_, i) => `087${String(1_000_000 + i)}`);
		const [plan] = planCampaigns(
			[
				item(0, { recipients: many, options: { batchSize: 1_000 } }),
				item(1, { recipients: ['0871000000', '0879999999'] }),
			],
			context,
		);
		const { recipients } = plan;
		expect(recipients.sending).toBe(3_001);
		expect(plan.batchCount).toBe(4);
		expect(recipients.numbers.owners[0].inputs).toBe(many);
		expect(recipients.numbers.msisdns[2_999]).toBe('353871002999');
		// Item 1's first number was item 0's first: a duplicate, named as such.
		expect(recipients.skip(3_000)).toEqual({
			kind: 'duplicate',
			reason: 'already in this campaign from item 0; sent once',
		});
		expect(recipients.msisdn(plan.batch(3)[0])).toBe('353879999999');
		expect(plan.items.map((i) => [i.itemIndex, i.first, i.end])).toEqual([
			[0, 0, 3_000],
			[1, 3_000, 3_002],
		]);
	});
});
