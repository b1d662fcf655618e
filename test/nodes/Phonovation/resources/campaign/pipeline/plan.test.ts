import type {
	CampaignPlan,
	PlannedItem,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/plan';
import {
	planCampaigns,
	withSkipped,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/plan';

import { context, item } from './textRequests';
import { type RecipientRecord, recordOf } from './records';

/** An item's numbers as records, read from its plan's columns. */
const recipientsOf = (plan: CampaignPlan, item: PlannedItem): RecipientRecord[] =>
	Array.from({ length: item.end - item.first }, (_, i) =>
		recordOf(plan.recipients, item.first + i),
	);
/** The recipients to send, in order, as records. */
const toSend = (plan: CampaignPlan) =>
	Array.from(plan.recipients.order, (entry) => recordOf(plan.recipients, entry));
/** The batches as records. */
const batchesOf = (plan: CampaignPlan) =>
	Array.from({ length: plan.batchCount }, (_, index) =>
		Array.from(plan.batch(index), (entry) => recordOf(plan.recipients, entry)),
	);

describe('planCampaigns (pure)', () => {
	it('groups items by sender and text in order of first appearance, and numbers each sent recipient once', () => {
		const plans = planCampaigns(
			[
				item(0, { recipients: '0871111111, 0872222222' }),
				item(1, { text: 'Other', recipients: '0873333333' }),
				item(2, { recipients: '0872222222; 0874444444' }),
			],
			context,
		);
		expect(plans.map((p) => [p.settings.text, p.items.map((i) => i.itemIndex)])).toEqual([
			['Hi', [0, 2]],
			['Other', [1]],
		]);
		const [first] = plans;
		expect(toSend(first).map((r) => [r.msisdn, r.position])).toEqual([
			['353871111111', 0],
			['353872222222', 1],
			['353874444444', 2],
		]);
		expect(recipientsOf(first, first.items[1]).map((r) => r.skip ?? null)).toEqual([
			{ kind: 'duplicate', reason: 'already in this campaign from item 0; sent once' },
			null,
		]);
	});

	it('splits the numbers to send into batches of Batch Size, keeping their order', () => {
		const [plan] = planCampaigns(
			[
				item(0, {
					recipients: ['0871000001', '0871000002', '0871000003'],
					options: { batchSize: 2 },
				}),
			],
			context,
		);
		expect(batchesOf(plan).map((b) => b.map((r) => r.msisdn))).toEqual([
			['353871000001', '353871000002'],
			['353871000003'],
		]);
	});

	it('an item that breaks a rule of its own is set apart; the rest of its campaign is still planned', () => {
		const [plan] = planCampaigns(
			[
				item(0, { recipients: '0871000001' }),
				item(1, { recipients: '0871000002', options: { notifyId: 'n'.repeat(31) } }),
			],
			context,
		);
		expect(plan.rejected).toMatchObject([
			{
				itemIndex: 1,
				violations: [
					{ field: 'notifyId', message: 'Notify ID is too long: 31 characters, the limit is 30' },
				],
			},
		]);
		expect(plan.violations).toEqual([]);
		expect(batchesOf(plan).map((b) => b.map((r) => r.msisdn))).toEqual([['353871000001']]);
	});

	it('a campaign whose shared settings break a rule has no batches', () => {
		const [plan] = planCampaigns([item(0, { text: '', recipients: '0871000001' })], context);
		expect(batchesOf(plan)).toEqual([]);
		expect(plan.violations).toEqual([{ field: 'text', message: 'Text is empty', itemIndex: 0 }]);
	});

	it('items whose requests differ only in Batch Size or Request Timeout are one campaign: a number they share is texted once', () => {
		const plans = planCampaigns(
			[
				item(0, { recipients: '0871000001', options: { batchSize: 2 } }),
				item(1, { recipients: '0871000001,0871000002', options: { batchSize: 3 } }),
				item(2, { recipients: '0871000003', options: { batchSize: 2, timeout: 5000 } }),
				item(3, { recipients: '0871000004', options: { batchSize: 2 } }),
			],
			context,
		);
		expect(plans).toHaveLength(1);
		const [plan] = plans;
		expect([plan.settings.perRequest, plan.settings.timeoutMs]).toEqual([2, 120000]);
		expect(toSend(plan).map((r) => r.msisdn)).toEqual([
			'353871000001',
			'353871000002',
			'353871000003',
			'353871000004',
		]);
		expect(recipientsOf(plan, plan.items[1]).map((r) => r.skip?.kind)).toEqual([
			'duplicate',
			undefined,
		]);
		expect(plan.warnings.filter((w) => w.includes(' differs '))).toEqual([
			"Batch Size differs on item(s) 1; their campaign (same Sender, Text, Send At, Campaign Name, Dry Run, Quiet Hours and Quiet Hours Time Zone) used item 0's 2, so that no number is texted twice",
			"Request Timeout differs on item(s) 2; their campaign (same Sender, Text, Send At, Campaign Name, Dry Run, Quiet Hours and Quiet Hours Time Zone) used item 0's 120000 ms, so that no number is texted twice",
		]);
	});

	it('an item of a shared campaign whose own Batch Size is not valid is set apart, naming the field', () => {
		const [plan] = planCampaigns(
			[
				item(0, { recipients: '0871000001' }),
				item(1, { recipients: '0871000002', options: { batchSize: 0 } }),
			],
			context,
		);
		expect(plan.rejected).toMatchObject([
			{
				itemIndex: 1,
				violations: [
					{
						field: 'batchSize',
						message: 'Batch Size must be a whole number from 1 to 400000 (got 0)',
					},
				],
			},
		]);
		expect(toSend(plan).map((r) => r.msisdn)).toEqual(['353871000001']);
	});

	it('Dry Run as a spreadsheet writes it is read as what it means; anything else sets the item apart and counts as a dry run', () => {
		const plans = planCampaigns(
			[
				item(0, { recipients: '0871000001', options: { dryRun: 'TRUE' } }),
				item(1, { recipients: '0871000002', options: { dryRun: 1 } }),
				item(2, { recipients: '0871000003', options: { dryRun: 'false' } }),
				item(3, { recipients: '0871000004', options: { dryRun: 'maybe' } }),
			],
			context,
		);
		expect(
			plans.map((p) => [
				p.settings.options.dryRun,
				p.items.map((i) => i.itemIndex),
				p.rejected.map((r) => r.itemIndex),
			]),
		).toEqual([
			[true, [0, 1], [3]],
			[false, [2], []],
		]);
		expect(plans[0].rejected[0].violations).toEqual([
			{ field: 'dryRun', message: 'Dry Run must be true or false, got "maybe"' },
		]);
	});

	it('a shared campaign takes Batch Size and Request Timeout from its first item to be sent; items with invalid ones are set apart', () => {
		const [plan] = planCampaigns(
			[
				item(0, {
					recipients: '0871000001',
					options: { batchSize: 1, timeout: 1000, notifyId: 'n'.repeat(31) },
				}),
				item(1, { recipients: '0871000002', options: { batchSize: 0 } }),
				item(2, { recipients: '0871000003', options: { batchSize: 5, timeout: 'abc' } }),
				item(3, { recipients: '0871000004', options: { batchSize: 5 } }),
				item(4, { recipients: '0871000005', options: { batchSize: 2 } }),
			],
			context,
		);
		expect(plan.violations).toEqual([]);
		expect([plan.settings.perRequest, plan.settings.timeoutMs]).toEqual([5, 120000]);
		expect(plan.rejected.map((r) => [r.itemIndex, r.violations.map((v) => v.field)])).toEqual([
			[0, ['notifyId']],
			[1, ['batchSize']],
			[2, ['timeout']],
		]);
		expect(plan.warnings.filter((w) => w.includes(' differs '))).toEqual([
			"Batch Size differs on item(s) 4; their campaign (same Sender, Text, Send At, Campaign Name, Dry Run, Quiet Hours and Quiet Hours Time Zone) used item 3's 5, so that no number is texted twice",
		]);
	});

	it('a dry run and a real send of the same text stay two campaigns: the dry run posts nothing', () => {
		const plans = planCampaigns(
			[
				item(0, { recipients: '0871000001', options: { dryRun: true } }),
				item(1, { recipients: '0871000001' }),
			],
			context,
		);
		expect(plans.map((p) => [p.settings.options.dryRun, toSend(p).map((r) => r.msisdn)])).toEqual([
			[true, ['353871000001']],
			[false, ['353871000001']],
		]);
	});

	it('an Exclude Numbers entry it cannot read sets the item apart, naming the entry (Unreadable Exclusions = Fail by default)', () => {
		const options = {
			excludeNumbers: [{ json: { phone: '0861234567' } }, { json: { phone: 'n/a' } }],
		};
		const [plan] = planCampaigns([item(0, { recipients: '0871000001', options })], context);
		expect(plan.rejected).toMatchObject([
			{
				itemIndex: 0,
				violations: [
					{
						field: 'excludeNumbers',
						message:
							'1 entry cannot be read as a phone number and would exclude no one — [1].json.phone "n/a": contains letters. ' +
							'Fix it, or set Unreadable Exclusions to Warn to send anyway',
					},
				],
			},
		]);
		expect(toSend(plan)).toEqual([]);
	});

	it('lists at most five unreadable entries and counts the rest', () => {
		const options = { excludeNumbers: 'a, b, c, d, e, f, g', unreadableExclusions: 'fail' };
		const [plan] = planCampaigns([item(0, { recipients: '0871000001', options })], context);
		expect(plan.rejected[0].violations[0].message).toBe(
			'7 entries cannot be read as phone numbers and would exclude no one — "a": contains letters; "b": contains letters; ' +
				'"c": contains letters; "d": contains letters; "e": contains letters; and 2 more. Fix them, or set Unreadable Exclusions to Warn to send anyway',
		);
	});

	it('with Unreadable Exclusions = Warn, the campaign is planned and the warning names the entries', () => {
		const options = {
			excludeNumbers: '0871000002, unsubscribed',
			unreadableExclusions: 'warn',
			messageType: 'transactional',
		};
		const [plan] = planCampaigns(
			[item(0, { recipients: '0871000001, 0871000002', options })],
			context,
		);
		expect(plan.rejected).toEqual([]);
		expect(toSend(plan).map((r) => r.msisdn)).toEqual(['353871000001']);
		expect(plan.warnings).toEqual([
			'Exclude Numbers: 1 entry could not be read as a phone number and exclude no one — "unsubscribed": contains letters',
		]);
	});

	it('a duplicate across items names the item and Notify ID it was sent with', () => {
		const [plan] = planCampaigns(
			[
				item(0, { recipients: '0871000001', options: { notifyId: 'order-1' } }),
				item(1, { recipients: '0871000001', options: { notifyId: 'order-2' } }),
			],
			context,
		);
		expect(recipientsOf(plan, plan.items[1])[0].skip).toEqual({
			kind: 'duplicate',
			reason: 'already in this campaign from item 0, sent with Notify ID "order-1"; sent once',
		});
	});

	it('a Send at 23:30 in Dublin inside Quiet Hours 21:00-08:00 is scheduled for 08:00 Irish time, in UTC', () => {
		const at2330 = { ...context, now: new Date('2030-06-01T22:30:00Z') };
		const options = { quietHours: '21:00-08:00', messageType: 'transactional' };
		const [plan] = planCampaigns([item(0, { recipients: '0871000001', options })], at2330);
		expect(plan.settings.sendAt).toBe('2030-06-02T07:00Z');
		expect(plan.warnings).toEqual([
			"Quiet Hours 21:00-08:00 in the recipients' time zones (Europe/Dublin): Sending now (2030-06-01 23:30) falls inside them, so the campaign is scheduled for 2030-06-02 08:00 local time (sendAt 2030-06-02T07:00Z)",
		]);
	});

	it('the Opt-Out Text is part of the text items are grouped by', () => {
		const plans = planCampaigns(
			[
				item(0, {
					text: 'Sale',
					recipients: '0871000001',
					options: { optOutText: 'Text STOP to 50123' },
				}),
				item(1, { text: 'Sale\nText STOP to 50123', recipients: '0871000002' }),
			],
			context,
		);
		expect(plans.map((p) => [p.settings.text, p.items.map((i) => i.itemIndex)])).toEqual([
			['Sale\nText STOP to 50123', [0, 1]],
		]);
	});

	it('reads each row with its own options even when neighbouring rows differ in one option only', () => {
		const plans = planCampaigns(
			[
				item(0, {
					recipients: '07911123456',
					options: { defaultCountryCode: '44', notifyId: 'a' },
				}),
				item(1, { recipients: '07911123457', options: { notifyId: 'b' } }),
				item(2, {
					recipients: '0871234567',
					options: { notifyId: 'c', excludeNumbers: '0871234567' },
				}),
				item(3, { recipients: '0871234567', options: { notifyId: 'd' } }),
			],
			context,
		);
		const rows = plans
			.flatMap((p) =>
				p.items.map((i) => ({ itemIndex: i.itemIndex, recipients: recipientsOf(p, i) })),
			)
			.sort((a, b) => a.itemIndex - b.itemIndex);
		expect(
			rows.map((r) => [
				r.recipients[0].msisdn,
				r.recipients[0].notifyId,
				r.recipients[0].skip?.kind ?? null,
			]),
		).toEqual([
			['447911123456', 'a', null],
			[null, 'b', 'invalid'],
			['353871234567', 'c', 'excluded'],
			['353871234567', 'd', null],
		]);
	});

	it('a row that adds an option the row before it lacks is read with it, and one that drops it without it', () => {
		const plans = planCampaigns(
			[
				item(0, { recipients: '0871000001' }),
				item(1, { recipients: '0871000002', options: { dryRun: true } }),
				item(2, { recipients: '0871000003' }),
			],
			context,
		);
		expect(
			plans.map((p) => [p.settings.options.dryRun ?? false, p.items.map((i) => i.itemIndex)]),
		).toEqual([
			[false, [0, 2]],
			[true, [1]],
		]);
	});

	it.each<[string, number, string, string | null]>([
		['no limit (0)', 0, 'x'.repeat(400), null],
		['a text of exactly the limit', 2, 'x'.repeat(306), null],
		[
			'a text one part over',
			1,
			'x'.repeat(161),
			'Max Parts per Text is 1, and the text is 2 parts long',
		],
	])('Max Parts per Text: %s', (_case, maxParts, text, message) => {
		const [plan] = planCampaigns(
			[item(0, { text, recipients: '0871000001', options: { maxParts } })],
			context,
		);
		const violations = [...plan.violations, ...plan.rejected.flatMap((r) => r.violations)];
		expect(violations.filter((v) => v.field === 'maxParts').map((v) => v.message)).toEqual(
			message === null ? [] : [message],
		);
	});

	it('Max Parts per Text counts the Opt-Out Text the campaign appends', () => {
		const [plan] = planCampaigns(
			[
				item(0, {
					text: 'x'.repeat(150),
					recipients: '0871000001',
					options: {
						maxParts: 1,
						messageType: 'marketing',
						optOutText: 'Text STOP to 50123 to opt out',
					},
				}),
			],
			context,
		);
		const violations = [...plan.violations, ...plan.rejected.flatMap((r) => r.violations)];
		expect(violations.map((v) => v.message)).toContainEqual(
			expect.stringMatching(
				/^Max Parts per Text is 1, and the text with the Opt-Out Text is 2 parts long/,
			),
		);
	});

	it.each<[string, string, string | null]>([
		['Fail', 'fail', 'Invalid number "call me": '],
		['Skip and Report', 'skip', null],
	])('Invalid Numbers = %s: a number it cannot read', (_case, invalidNumbers, message) => {
		const [plan] = planCampaigns(
			[item(0, { recipients: '0871000001, call me', options: { invalidNumbers } })],
			context,
		);
		const violations = [...plan.violations, ...plan.rejected.flatMap((r) => r.violations)];
		const invalid = violations.filter((v) => v.field === 'recipients').map((v) => v.message);
		if (message === null) {
			expect(invalid).toEqual([]);
			expect(recipientsOf(plan, plan.items[0])[1].skip).toMatchObject({ kind: 'invalid' });
		} else {
			expect(invalid).toEqual([expect.stringContaining(message)]);
		}
	});

	it('a campaign whose every number was invalid, excluded or a duplicate has nothing to send, and says so', () => {
		const [plan] = planCampaigns(
			[
				item(0, {
					recipients: 'call me, 0871000001',
					options: { invalidNumbers: 'skip', excludeNumbers: '0871000001' },
				}),
			],
			context,
		);
		expect(plan.batchCount).toBe(0);
		expect(plan.violations.map((v) => v.message)).toEqual([
			'No valid recipient left to send to (all were invalid, excluded or duplicates)',
		]);
	});

	it("shares what rows have in common but keeps each row's own violations, in the order a row reports them", () => {
		const [plan] = planCampaigns(
			[
				item(0, {
					recipients: '0871111111',
					options: { notifyId: 'x'.repeat(31), defaultCountryCode: '1876' },
				}),
				item(1, {
					recipients: '0872222222',
					options: { notifyId: 'ok', defaultCountryCode: '1876' },
				}),
			],
			context,
		);
		expect(plan.rejected.map((r) => [r.itemIndex, r.violations.map((v) => v.field)])).toEqual([
			[0, ['defaultCountryCode', 'notifyId']],
			[1, ['defaultCountryCode']],
		]);
	});

	it("checks each scheduled row's own Send At even when everything else matches the row before", () => {
		const scheduled = { ...context, scheduled: true };
		const rows = [
			item(0, { recipients: '0871111111', sendAt: '2030-01-02T09:00:00Z' }),
			item(1, {
				recipients: '0872222222',
				sendAt: '2020-01-02T09:00:00Z',
				options: { notifyId: 'x'.repeat(31) },
			}),
			item(2, { recipients: '0873333333', sendAt: '2030-01-03T09:00:00Z' }),
		];
		const plans = planCampaigns(rows, scheduled);
		expect(plans.map((p) => [p.settings.sendAt, p.items.map((i) => i.itemIndex)])).toEqual([
			['2030-01-02T09:00Z', [0]],
			[null, []],
			['2030-01-03T09:00Z', [2]],
		]);
		expect(plans[1].rejected.map((r) => [r.itemIndex, r.violations.map((v) => v.field)])).toEqual([
			[1, ['notifyId', 'sendAt']],
		]);
	});
});

describe('withSkipped: numbers the sender cannot reach, left out after planning (pure)', () => {
	const UNREACHABLE = {
		kind: 'undeliverable' as const,
		reason: 'the sender cannot reach this country',
	};
	const planOf = (recipients: string[], batchSize = 2) =>
		planCampaigns([item(0, { recipients, options: { batchSize } })], context)[0];

	it('leaves out the numbers it is told to, marks them with the skip, and batches the rest again in order', () => {
		const plan = planOf([
			'0871000001',
			'+447911000002',
			'0871000003',
			'+447911000004',
			'0871000005',
		]);
		const kept = withSkipped(plan, (msisdn) => msisdn.startsWith('44'), UNREACHABLE);
		expect(toSend(kept).map((r) => r.msisdn)).toEqual([
			'353871000001',
			'353871000003',
			'353871000005',
		]);
		expect(batchesOf(kept).map((b) => b.map((r) => r.msisdn))).toEqual([
			['353871000001', '353871000003'],
			['353871000005'],
		]);
		expect(recipientsOf(kept, kept.items[0]).map((r) => r.skip?.kind ?? 'sent')).toEqual([
			'sent',
			'undeliverable',
			'sent',
			'undeliverable',
			'sent',
		]);
		expect(kept.violations).toEqual([]);
		// The plan it started from is unchanged.
		expect(toSend(plan)).toHaveLength(5);
		expect(plan.batchCount).toBe(3);
	});

	it('keeps the skips planning already made (a duplicate stays a duplicate)', () => {
		const plan = planOf(['0871000001', '0871000001', '+447911000002']);
		const kept = withSkipped(plan, (msisdn) => msisdn.startsWith('44'), UNREACHABLE);
		expect(recipientsOf(kept, kept.items[0]).map((r) => r.skip?.kind ?? 'sent')).toEqual([
			'sent',
			'duplicate',
			'undeliverable',
		]);
	});

	it('is the same plan when nothing is left out', () => {
		const plan = planOf(['0871000001', '0871000002']);
		expect(withSkipped(plan, () => false, UNREACHABLE)).toBe(plan);
	});

	it('with every number left out, the campaign has a violation naming the field, the item and why', () => {
		const plan = planOf(['+447911000002', '+447911000004']);
		const kept = withSkipped(plan, () => true, UNREACHABLE);
		expect(toSend(kept)).toEqual([]);
		expect(kept.violations).toEqual([
			{
				field: 'recipients',
				message: 'No recipient left to send to: the sender cannot reach this country',
				itemIndex: 0,
			},
		]);
	});
});
