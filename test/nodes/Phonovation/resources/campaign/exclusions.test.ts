import type {
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PhonovationApi } from '../../../../../credentials/PhonovationApi.credentials';
import { Phonovation } from '../../../../../nodes/Phonovation/Phonovation.node';
import { Engine } from '../../../../harness/engine';
import { simulatorCredentialData } from '../../../../simulator';
import { NODE_TYPE, sharedFixture } from '../../fixture';

const CAMPAIGN = '/api/v2/Campaign';
const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	text: 'Your order shipped',
};
/** Transactional: these tests are about the numbers, not the opt-out wording warning. */
const TRANSACTIONAL = { messageType: 'transactional' };
type Json = Record<string, any>;
const jsonOf = (items: Array<{ json: unknown }>) => items.map((i) => i.json as Json);

/** What n8n makes of `={{ … }}` whose code is this value written out: the value itself (spaced: `}}` would end it). */
const expressionOf = (value: unknown) => `={{ ${JSON.stringify(value, null, 1)} }}`;

/** Three recipients; the shapes below exclude the second and the fourth (not a recipient). */
const RECIPIENTS = '0871000001, 0871000002, 0871000003';
const SENT = [{ msisdn: '353871000001' }, { msisdn: '353871000003' }];

/** Items as `$('Opted-Out').all()` hands them to an expression: json, pairedItem and all. */
const WHOLE_ITEMS = [
	{ json: { phone: '0871000002', optedOutAt: '2030-01-01T10:00:00Z' }, pairedItem: { item: 0 } },
	{ json: { phone: '0871000004', optedOutAt: '2030-01-02T10:00:00Z' }, pairedItem: { item: 1 } },
];

describe('Exclude Numbers takes what users pass, and the excluded numbers are never texted', () => {
	const fixture = sharedFixture();

	it.each([
		{ shape: "whole n8n items ($('Opted-Out').all())", excludeNumbers: expressionOf(WHOLE_ITEMS) },
		{
			shape: 'item json objects',
			excludeNumbers: expressionOf([{ phone: '0871000002', name: 'x' }, { Mobile: '0871000004' }]),
		},
		{ shape: 'a space-joined string', excludeNumbers: '0871000002 0871000004' },
		{ shape: 'a newline-joined string', excludeNumbers: '0871000002\n0871000004\n' },
		{ shape: 'tel: URIs', excludeNumbers: 'tel:+353-87-100-0002, tel:+353871000004;ext=1' },
		{
			shape: 'spreadsheet floats as text',
			excludeNumbers: expressionOf(['353871000002.0', '353871000004.0']),
		},
		{ shape: 'a spreadsheet float as a number', excludeNumbers: '={{ 353871000002 }}' },
		{
			shape: 'an array of numbers (one lost its 0)',
			excludeNumbers: '={{ [353871000002, 871000004] }}',
		},
		{ shape: 'one number written with spaces', excludeNumbers: '087 100 0002' },
	])('$shape', async ({ excludeNumbers }) => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			recipients: RECIPIENTS,
			options: { excludeNumbers, ...TRANSACTIONAL },
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([SENT]);
		const [out] = jsonOf(result.items);
		expect(out.recipients.map((r: Json) => [r.msisdn, r.status])).toEqual([
			['353871000001', 'accepted'],
			['353871000002', 'excluded'],
			['353871000003', 'accepted'],
		]);
		expect(out.warnings).toEqual([]);
	});

	it('a spreadsheet float excludes its own number, not the one with its decimal 0 as a digit', async () => {
		const f = fixture();
		// 3538710000020 is what reading the point as formatting made of 353871000002.0: another valid Irish number.
		const result = await f.run({
			...SEND,
			recipients: '353871000002, 3538710000020',
			options: { excludeNumbers: '353871000002.0', ...TRANSACTIONAL },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items)[0].recipients.map((r: Json) => [r.msisdn, r.status])).toEqual([
			['353871000002', 'excluded'],
			['3538710000020', 'accepted'],
		]);
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
			[{ msisdn: '3538710000020' }],
		]);
	});
});

/** Test-only node that outputs the items in its `items` parameter, whatever it receives. */
class FixedItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fixed Items',
		name: 'fixedItems',
		group: ['transform'],
		version: 1,
		description: 'Test-only node',
		defaults: { name: 'Fixed Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const rows = JSON.parse(this.getNodeParameter('items', 0) as string) as Json[];
		return [rows.map((json) => ({ json }))];
	}
}

describe("a workflow whose Exclude Numbers is {{ $('Opted-Out').all() }}", () => {
	const fixture = sharedFixture();
	let engine: Engine;
	beforeAll(() => {
		engine = new Engine({
			nodeTypes: { [NODE_TYPE]: new Phonovation(), fixedItems: new FixedItems() },
			credentialTypes: [new PhonovationApi()],
		});
	});

	/** Opted-Out → Contacts → Phonovation, as a user builds it. */
	async function runWorkflow(optedOut: Json[], contacts: Json[], options: Json = {}) {
		const f = fixture();
		engine.credentials.set('cred-1', { ...simulatorCredentialData(f.sim), accessToken: '' });
		const rows = (name: string, items: Json[], x: number): INode => ({
			id: name,
			name,
			type: 'fixedItems',
			typeVersion: 1,
			position: [x, 0],
			parameters: { items: JSON.stringify(items) },
		});
		const send = f.node({
			...SEND,
			recipients: '={{ $json.phone }}',
			options: { excludeNumbers: "={{ $('Opted-Out').all() }}", ...options },
		});
		const nodes = [rows('Opted-Out', optedOut, 0), rows('Contacts', contacts, 200), send];
		const main = (node: string) => ({
			main: [[{ node, type: NodeConnectionTypes.Main, index: 0 }]],
		});
		const run = await engine.runWorkflow(
			nodes,
			{ 'Opted-Out': main('Contacts'), Contacts: main(send.name) },
			nodes[0],
			[{ json: {} }],
		);
		const task = run.data.resultData.runData[send.name]?.[0];
		return { f, error: task?.error, items: task?.data?.main[0] ?? [] };
	}

	const contacts = [
		{ phone: '0871000001' },
		{ phone: '087 100 0002' },
		{ phone: 353871000003 },
		{ phone: '353871000004.0' },
	];

	it('the opted-out numbers, however the rows wrote them, are not texted; the others are', async () => {
		const { f, error, items } = await runWorkflow(
			[{ phone: 871000002, name: 'A' }, { msisdn: '353871000004.0' }],
			contacts,
		);
		expect(error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
			[{ msisdn: '353871000001' }, { msisdn: '353871000003' }],
		]);
		expect(jsonOf(items).map((o) => o.recipients[0].status)).toEqual([
			'accepted',
			'excluded',
			'accepted',
			'excluded',
		]);
	});

	it('a row it cannot read stops the run before anything is posted, naming the row and the item', async () => {
		const { f, error } = await runWorkflow(
			[{ phone: '0871000002' }, { name: 'B', email: 'b@example.com' }],
			contacts,
		);
		expect(error?.message).toBe(
			'Exclude Numbers: 1 entry cannot be read as a phone number and would exclude no one — [1].json: no phone field ' +
				'(phone, mobile, msisdn, number, …) and 2 other values, so none is taken; its fields: name, email. ' +
				'Fix it, or set Unreadable Exclusions to Warn to send anyway (item 0)',
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
		expect(f.sim.campaigns).toHaveLength(0);
	});
});

describe('an Exclude Numbers entry it cannot read stops the run (Unreadable Exclusions)', () => {
	const fixture = sharedFixture();

	it('by default nothing is posted, and the error names the entry and the item', async () => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			recipients: RECIPIENTS,
			options: { excludeNumbers: '0871000002, unsubscribed' },
		});
		expect(result.error?.message).toBe(
			'Exclude Numbers: 1 entry cannot be read as a phone number and would exclude no one — "unsubscribed": contains letters. ' +
				'Fix it, or set Unreadable Exclusions to Warn to send anyway (item 0)',
		);
		expect(result.error?.description).toMatch(/^Nothing was sent for this campaign/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('scientific notation is refused: its digits are lost', async () => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			recipients: RECIPIENTS,
			options: { excludeNumbers: '3.53871E+11' },
		});
		expect(result.error?.message).toMatch(
			/^Exclude Numbers: 1 entry cannot be read .* — "3\.53871E\+11": scientific notation: digits are lost \(format the spreadsheet column as text\)\. /,
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('names the item whose own list holds the entry, and shows no value of a field that is not a phone number', async () => {
		const f = fixture();
		const result = await f.run(
			{
				...SEND,
				recipients: '={{ $json.phone }}',
				options: { excludeNumbers: '={{ $json.optedOut }}' },
			},
			[
				{ json: { phone: '0871000001', optedOut: [{ phone: '0871000009' }] } },
				{ json: { phone: '0871000002', optedOut: [{ apiKey: 'sk_live_abcdef0123456789' }] } },
			],
		);
		expect(result.error?.message).toBe(
			'Exclude Numbers: 1 entry cannot be read as a phone number and would exclude no one — [0].apiKey: contains letters. ' +
				'Fix it, or set Unreadable Exclusions to Warn to send anyway (item 1)',
		);
		expect(result.error?.message).not.toMatch(/sk_live/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});

	it('with Continue On Fail, only the item whose list cannot be read becomes an error item', async () => {
		const f = fixture();
		const result = await f.run(
			{
				...SEND,
				recipients: '={{ $json.phone }}',
				options: { excludeNumbers: '={{ $json.optedOut }}' },
			},
			[
				{ json: { phone: '0871000001', optedOut: 'call me' } },
				{ json: { phone: '0871000002', optedOut: '0871000009' } },
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(result.error).toBeUndefined();
		const out = jsonOf(result.items);
		expect(out[0].error).toMatch(
			/^Exclude Numbers: 1 entry cannot be read .*"call me": contains letters.* \(item 0\)$/,
		);
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
			[{ msisdn: '353871000002' }],
		]);
	});

	it('with Warn, the campaign goes out as before: the readable entries exclude, the others are listed in warnings', async () => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			recipients: RECIPIENTS,
			options: {
				excludeNumbers: '0871000002, unsubscribed, 12',
				unreadableExclusions: 'warn',
				...TRANSACTIONAL,
			},
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([SENT]);
		const [out] = jsonOf(result.items);
		expect(out.recipients[1]).toMatchObject({ msisdn: '353871000002', status: 'excluded' });
		expect(out.warnings).toEqual([
			'Exclude Numbers: 2 entries could not be read as phone numbers and exclude no one — "unsubscribed": contains letters; ' +
				'"12": too short (2 digits, min 8)',
		]);
	});
});

describe('Exclude Numbers in every country: national forms and lost zeros follow the Default Country Code', () => {
	const fixture = sharedFixture();

	/** A campaign to `recipients` excluding `excludeNumbers`: what was texted, and each recipient's status. */
	async function excluding(
		recipients: string,
		excludeNumbers: string,
		defaultCountryCode?: string,
	) {
		const f = fixture();
		const options = {
			excludeNumbers,
			...TRANSACTIONAL,
			...(defaultCountryCode ? { defaultCountryCode } : {}),
		};
		const result = await f.run({ ...SEND, recipients, options });
		expect(result.error).toBeUndefined();
		const [out] = jsonOf(result.items);
		return {
			texted: f.sim.campaigns.flatMap((c) => c.body.recipientInfo.map((r: Json) => r.msisdn)),
			statuses: out.recipients.map((r: Json) => [r.msisdn, r.status]),
		};
	}

	it.each([
		{ shape: 'as text', excludeNumbers: '7911123456' },
		{ shape: 'as a spreadsheet number', excludeNumbers: '={{ [7911123456] }}' },
	])(
		'Default Country Code 44: a UK mobile whose 0 a spreadsheet dropped (7911123456, $shape) is not texted',
		async ({ excludeNumbers }) => {
			const { texted, statuses } = await excluding(
				'+44 7911 123456, +44 7911 123457',
				excludeNumbers,
				'44',
			);
			expect(texted).toEqual(['447911123457']);
			expect(statuses).toEqual([
				['447911123456', 'excluded'],
				['447911123457', 'accepted'],
			]);
		},
	);

	it('Default Country Code 44: 7911123456 could also be +7 911 123 456, and that number is excluded too', async () => {
		const { texted, statuses } = await excluding(
			'+7 911 123 456, +44 7911 123457',
			'7911123456',
			'44',
		);
		expect(texted).toEqual(['447911123457']);
		expect(statuses[0]).toEqual(['7911123456', 'excluded']);
	});

	it.each([
		{ shape: 'in national form', excludeNumbers: '06 12 34 56 78' },
		{ shape: 'without its leading 0', excludeNumbers: '6 12 34 56 78' },
		{ shape: 'as a spreadsheet number', excludeNumbers: '={{ 612345678 }}' },
	])(
		'Default Country Code 33: a French mobile $shape is not texted',
		async ({ excludeNumbers }) => {
			const { texted, statuses } = await excluding(
				'+33 6 12 34 56 78, +33 6 12 34 56 79',
				excludeNumbers,
				'33',
			);
			expect(texted).toEqual(['33612345679']);
			expect(statuses).toEqual([
				['33612345678', 'excluded'],
				['33612345679', 'accepted'],
			]);
		},
	);

	it('Default Country Code 39: an Italian mobile as Italians write it (312 345 6789) is not texted', async () => {
		const { texted } = await excluding('+39 312 345 6789, +39 312 345 6780', '312 345 6789', '39');
		expect(texted).toEqual(['393123456780']);
	});

	it.each([
		{ row: { Phone: '', MobilePhone: '087 100 0002' } },
		{ row: { Phone: '', 'Mobile Phone Number': '087 100 0002' } },
		{ row: { Tel: '', 'Mobile No.': '087 100 0002', Cell: null } },
		{ row: { phone: '', Cellular: '087 100 0002', 'Work Telephone': '' } },
	])(
		'a CRM row with an empty phone field and a number in another ($row) excludes the number',
		async ({ row }) => {
			const { texted, statuses } = await excluding(RECIPIENTS, expressionOf([row]));
			expect(texted).toEqual(['353871000001', '353871000003']);
			expect(statuses[1]).toEqual(['353871000002', 'excluded']);
		},
	);

	it("every phone field of a CRM row is excluded: the contact's phone and mobile", async () => {
		const { texted } = await excluding(
			RECIPIENTS,
			expressionOf([{ Telephone: '087 100 0001', 'Mobile Phone Number': '087 100 0002' }]),
		);
		expect(texted).toEqual(['353871000003']);
	});

	it('a row whose phone fields are empty while another field holds a number stops the run before anything is posted', async () => {
		const f = fixture();
		const excludeNumbers = expressionOf([{ Phone: '', Mobile: '', Other: '087 100 0002' }]);
		const result = await f.run({
			...SEND,
			recipients: RECIPIENTS,
			options: { excludeNumbers, ...TRANSACTIONAL },
		});
		expect(result.error?.message).toBe(
			'Exclude Numbers: 1 entry cannot be read as a phone number and would exclude no one — [0]: its phone fields ' +
				'(Phone, Mobile) are empty, but Other holds a number. Fix it, or set Unreadable Exclusions to Warn to send anyway (item 0)',
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});
});
