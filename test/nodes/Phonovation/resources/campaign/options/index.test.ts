import type { INodeProperties } from 'n8n-workflow';

import {
	BODY_OPTIONS,
	CAMPAIGN_KEY_OPTIONS,
	CAMPAIGN_KEY_WORDING,
	ITEM_FIELD_OPTIONS,
	campaignKeyValue,
	OPTION_FIELDS,
	OPTION_NAMES,
	type OptionName,
	readOption,
	readOptions,
	REPORT_OPTIONS,
} from '../../../../../../nodes/Phonovation/resources/campaign/options';
import {
	campaignProperties,
	FIELD_LABELS,
} from '../../../../../../nodes/Phonovation/resources/campaign/fields';
import type { RuleViolation } from '../../../../../../nodes/Phonovation/domain/rules';
import { itemsOf, sharedFixture } from '../../../fixture';

function read(name: OptionName, raw: unknown): { value: unknown; violations: RuleViolation[] } {
	const violations: RuleViolation[] = [];
	const value = readOption(name, raw, violations);
	return { value, violations };
}

describe('the campaign option table', () => {
	it('is what the node shows under Options, in the alphabetical order n8n lists them', () => {
		const options = campaignProperties('send').find((p) => p.name === 'options')!
			.options as INodeProperties[];
		expect(options.map((o) => o.name)).toEqual(OPTION_NAMES);
		const labels = OPTION_FIELDS.map((o) => o.displayName);
		expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
	});

	it('gives every option the label its errors use', () => {
		for (const field of OPTION_FIELDS) expect(FIELD_LABELS[field.name]).toBe(field.displayName);
	});

	it('writes to the body and shows only campaign-key options: a campaign takes them from its first item', () => {
		for (const name of [...BODY_OPTIONS, ...REPORT_OPTIONS])
			expect(CAMPAIGN_KEY_OPTIONS).toContain(name);
	});

	it('shows at the top of each item only campaign-key options (Dry Run): the campaign decides them', () => {
		expect(ITEM_FIELD_OPTIONS).toEqual(['dryRun']);
		for (const name of ITEM_FIELD_OPTIONS) expect(CAMPAIGN_KEY_OPTIONS).toContain(name);
	});

	it('says what makes items one campaign in the Recipients description', () => {
		expect(CAMPAIGN_KEY_OPTIONS).toEqual([
			'campaignName',
			'dryRun',
			'quietHours',
			'quietHoursTimeZone',
		]);
		expect(CAMPAIGN_KEY_WORDING).toBe(
			'Sender, Text, Send At, Campaign Name, Dry Run, Quiet Hours and Quiet Hours Time Zone',
		);
		const recipients = campaignProperties('send').find((p) => p.name === 'recipients')!;
		expect(recipients.description).toContain(
			`Items with the same ${CAMPAIGN_KEY_WORDING} are sent together as one campaign`,
		);
		expect(BODY_OPTIONS).toEqual(['campaignName']);
		expect(REPORT_OPTIONS).toEqual(['campaignName']);
	});

	it('reads every option at its default when nothing is set, with no violation', () => {
		const { values, violations } = readOptions({});
		expect(violations).toEqual([]);
		expect(values).toMatchObject({
			adaptiveParallelRequests: true,
			batchSize: 400_000,
			campaignName: '',
			defaultCountryCode: '353',
			dryRun: false,
			invalidNumbers: 'skip',
			maxParts: 0,
			messageType: 'marketing',
			missingOptOut: 'warn',
			parallelRequests: 256,
			quietHours: '',
			timeout: 120_000,
			unreadableExclusions: 'fail',
		});
	});
});

describe('reading an option as a spreadsheet or an expression gives it', () => {
	it.each([
		['parallelRequests', '8', 8],
		['parallelRequests', 1000, 1000],
		['batchSize', '400000', 400_000],
		['batchSize', 1, 1],
		['maxParts', '2', 2],
		['adaptiveParallelRequests', 'FALSE', false],
		['adaptiveParallelRequests', 0, false],
		['dryRun', 'yes', true],
		['dryRun', 'off', false],
		['invalidNumbers', 'Fail', 'fail'],
		['invalidNumbers', 'skip and report', 'skip'],
		['messageType', ' TRANSACTIONAL ', 'transactional'],
		['defaultCountryCode', '+44', '44'],
		['campaignName', '  Spring  ', 'Spring'],
		['timeout', '5000', 5000],
	] as Array<[OptionName, unknown, unknown]>)('%s %p is %p', (name, raw, value) => {
		expect(read(name, raw)).toEqual({ value, violations: [] });
	});

	it.each([
		['parallelRequests', 0, 'Parallel Requests must be a whole number from 1 to 1000 (got 0)'],
		[
			'parallelRequests',
			'many',
			'Parallel Requests must be a whole number from 1 to 1000 (got many)',
		],
		['batchSize', 2.5, 'Batch Size must be a whole number from 1 to 400000 (got 2.5)'],
		['batchSize', 400_001, 'Batch Size must be a whole number from 1 to 400000 (got 400001)'],
		['maxParts', 31, 'Max Parts per Text must be a whole number from 0 to 30 (got 31)'],
		[
			'adaptiveParallelRequests',
			'sometimes',
			'Adaptive Parallel Requests must be true or false, got "sometimes"',
		],
		['dryRun', 'Maybe', 'Dry Run must be true or false, got "maybe"'],
		['invalidNumbers', 'ignore', 'Invalid Numbers must be Fail or Skip and Report (got "ignore")'],
		['missingOptOut', 'shrug', 'Missing Opt-Out Wording must be Fail or Warn (got "shrug")'],
		['campaignName', 'c'.repeat(31), 'Campaign Name is too long: 31 characters, the limit is 30'],
		['notifyId', 'n'.repeat(31), 'Notify ID is too long: 31 characters, the limit is 30'],
		['timeout', -1, 'Request Timeout must be a number of milliseconds above 0'],
		[
			'defaultCountryCode',
			'35',
			'Default Country Code "35" is not a country calling code (ITU-T E.164), e.g. 353 for Ireland or 44 for the UK',
		],
	] as Array<[OptionName, unknown, string]>)(
		'%s %p is refused, labelled once',
		(name, raw, message) => {
			expect(read(name, raw).violations).toEqual([{ field: name, message }]);
		},
	);

	it.each([
		['maxParts', true],
		['maxParts', false],
		['maxParts', []],
		['maxParts', ' '],
		['batchSize', [400]],
		['timeout', true],
	] as Array<[OptionName, unknown]>)(
		'%s %p is no number: refused, not read as 0 or 1',
		(name, raw) => {
			expect(read(name, raw).violations).toHaveLength(1);
		},
	);

	it('reads Quiet Hours and their time zone in one form each, so rows that write them two ways agree', () => {
		expect(read('quietHours', ' 9:00 – 17:05 ')).toEqual({ value: '09:00-17:05', violations: [] });
		expect(read('quietHours', '21:00 to 08:00').value).toBe('21:00-08:00');
		expect(read('quietHoursTimeZone', ' europe/dublin ').value).toBe('Europe/Dublin');
		expect(read('quietHours', '9pm-8am').violations).toEqual([
			{
				field: 'quietHours',
				message: 'Quiet Hours "9pm-8am" is not a window such as 21:00-08:00 (24-hour clock)',
			},
		]);
		expect(read('quietHoursTimeZone', 'Europe/Atlantis').violations).toEqual([
			{
				field: 'quietHoursTimeZone',
				message:
					'Quiet Hours Time Zone "Europe/Atlantis" is not a time zone; use a name such as Europe/Dublin',
			},
		]);
	});

	it('keys a campaign on what the options mean: a time zone for Quiet Hours that are off is no difference', () => {
		const off = readOptions({ quietHoursTimeZone: 'Asia/Tokyo' }).values;
		expect(campaignKeyValue('quietHoursTimeZone', off)).toBe('');
		const on = readOptions({ quietHours: '21:00-08:00', quietHoursTimeZone: 'Asia/Tokyo' }).values;
		expect(campaignKeyValue('quietHoursTimeZone', on)).toBe('Asia/Tokyo');
	});

	it('reads a value it refuses as the cautious choice, never as one that spends more', () => {
		expect(read('dryRun', 'maybe').value).toBe(true);
		expect(read('invalidNumbers', 'ignore').value).toBe('fail');
		expect(read('missingOptOut', 'shrug').value).toBe('fail');
		expect(read('unreadableExclusions', 'meh').value).toBe('fail');
		expect(read('messageType', 'news').value).toBe('marketing');
	});

	it('cuts what it shows of a long value', () => {
		expect(read('parallelRequests', 'x'.repeat(200)).violations[0].message).toBe(
			`Parallel Requests must be a whole number from 1 to 1000 (got ${'x'.repeat(20)}…)`,
		);
	});

	it('reads all options but the Notify ID in the table order, each problem once', () => {
		const { violations } = readOptions({
			batchSize: 0,
			dryRun: 'maybe',
			notifyId: 'n'.repeat(40),
			timeout: 'soon',
		});
		expect(violations.map((v) => v.field)).toEqual(['batchSize', 'dryRun', 'timeout']);
	});
});

const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	text: 'Hi',
	recipients: '0871234567',
};

describe('campaign options checked before sending', () => {
	const fixture = sharedFixture();

	it.each(['35', '999', '0', '1876', 'IE', '+0353', '12a'])(
		'a Default Country Code of "%s" is refused, naming the option',
		async (code) => {
			const f = fixture();
			const result = await f.run({ ...SEND, options: { defaultCountryCode: code } });
			expect(result.error?.message).toBe(
				`Default Country Code "${code}" is not a country calling code (ITU-T E.164), e.g. 353 for Ireland or 44 for the UK (item 0)`,
			);
			expect(result.error?.description).toMatch(/Nothing was sent/);
			expect(f.sim.count('POST', '/api/v2/Campaign')).toBe(0);
		},
	);

	it.each([
		['44', '07911 123456', '447911123456'],
		['+44', '07911 123456', '447911123456'],
		['0044', '07911 123456', '447911123456'],
		['1', '0212 555 0100', '12125550100'],
	])('a Default Country Code of "%s" turns %s into %s', async (code, input, msisdn) => {
		const f = fixture();
		const result = await f.run({
			...SEND,
			recipients: input,
			options: { defaultCountryCode: code },
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns[0].body.recipientInfo).toEqual([{ msisdn }]);
	});

	it('with Continue On Fail, the item with a bad country code is an error and other campaigns go out', async () => {
		const f = fixture();
		const items = itemsOf(2, (i) => ({ code: i === 0 ? '1876' : '353', text: `T${i}` }));
		const result = await f.run(
			{ ...SEND, text: '={{ $json.text }}', options: { defaultCountryCode: '={{ $json.code }}' } },
			items,
			{ onError: 'continueRegularOutput' },
		);
		const json = result.items.map((i) => i.json as Record<string, any>);
		expect(json[0].error).toMatch(/^Default Country Code "1876" is not a country calling code/);
		expect(json[1].recipients[0].status).toBe('accepted');
		expect(f.sim.campaigns.map((c) => c.body.text)).toEqual(['T1']);
	});

	it('legacy send refuses a bad Default Country Code the same way', async () => {
		const f = fixture();
		const result = await f.run({
			resource: 'legacyMessage',
			operation: 'send',
			from: 'Acme',
			to: '0871234567',
			text: 'Hi',
			options: { defaultCountryCode: '1876' },
		});
		expect(result.error?.message).toMatch(
			/^Default Country Code "1876" is not a country calling code .* \(item 0\)$/,
		);
		expect(f.sim.requests).toHaveLength(0);
	});
});
