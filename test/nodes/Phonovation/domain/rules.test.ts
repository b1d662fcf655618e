import {
	campaignSettingsSchema,
	LIMITS,
	notifyIdSchema,
	parseCountryCode,
	parsePacing,
	parseParallelRequests,
	violationsOf,
} from '../../../../nodes/Phonovation/domain/rules';

const valid = { from: 'Phonovation', text: 'Hello', campaignName: 'Spring', batchSize: 1000 };

describe('campaign rules (docs/provider-api.md#limits)', () => {
	it('accepts values at every limit', () => {
		expect(
			violationsOf(campaignSettingsSchema, {
				from: 'F'.repeat(LIMITS.from),
				text: 't'.repeat(LIMITS.text),
				campaignName: 'c'.repeat(LIMITS.campaignName),
				batchSize: LIMITS.recipientsPerRequest,
			}),
		).toEqual([]);
		expect(violationsOf(notifyIdSchema, 'n'.repeat(LIMITS.notifyId))).toEqual([]);
	});

	it('names the field and the limit one past each limit', () => {
		expect(
			violationsOf(campaignSettingsSchema, {
				from: 'F'.repeat(21),
				text: 't'.repeat(2001),
				campaignName: 'c'.repeat(31),
				batchSize: 400_001,
			}),
		).toEqual([
			{ field: 'from', message: 'Sender ID is too long: 21 characters, the limit is 20' },
			{ field: 'text', message: 'Text is too long: 2001 characters, the limit is 2000' },
			{ field: 'campaignName', message: 'Campaign name is too long: 31 characters, the limit is 30' },
			{ field: 'batchSize', message: 'Batch size is too large: the provider accepts at most 400000 recipients per request' },
		]);
		expect(violationsOf(notifyIdSchema, 'n'.repeat(31))).toEqual([
			{ field: '', message: 'Notify ID is too long: 31 characters, the limit is 30' },
		]);
	});

	it('refuses blank text and sender, and a fractional or zero batch size', () => {
		expect(violationsOf(campaignSettingsSchema, { ...valid, text: '   ', from: '' }).map((v) => v.message)).toEqual([
			'Sender ID is empty',
			'Text is empty',
		]);
		expect(violationsOf(campaignSettingsSchema, { ...valid, batchSize: 0 })[0].message).toMatch(/at least 1/);
		expect(violationsOf(campaignSettingsSchema, { ...valid, batchSize: 2.5 })[0].message).toMatch(/whole number/);
	});
});

describe('Default Country Code', () => {
	it.each([
		['353', '353'],
		['+353', '353'],
		['00353', '353'],
		[' 44 ', '44'],
		['1', '1'],
		['', '353'],
		[undefined, '353'],
		[null, '353'],
	])('"%s" means country code %s', (input, code) => {
		expect(parseCountryCode(input)).toEqual({ ok: true, code });
	});

	it.each(['1876', '0353', 'IE', '3 5 3', '+', '35', '0', '999', '+35', '0035', '800', '882', '388', '671', '00'])(
		'"%s" is refused, naming the option',
		(input) => {
			expect(parseCountryCode(input)).toEqual({
				ok: false,
				violation: {
					field: 'defaultCountryCode',
					message: `"${input.trim()}" is not a country calling code (ITU-T E.164), e.g. 353 for Ireland or 44 for the UK`,
				},
			});
		},
	);

	it.each([['33'], ['+358'], ['0049'], ['7'], ['998'], ['383']])('"%s" is a country calling code', (input) => {
		expect(parseCountryCode(input)).toEqual({ ok: true, code: input.replace(/^(\+|00)/, '') });
	});

	it('shows at most 20 characters of what was typed', () => {
		const result = parseCountryCode('x'.repeat(500));
		expect(result.ok ? '' : result.violation.message).toBe(
			`"${'x'.repeat(20)}…" is not a country calling code (ITU-T E.164), e.g. 353 for Ireland or 44 for the UK`,
		);
	});
});

describe('Parallel Requests (docs: 1 to 1000, default 256)', () => {
	it.each([
		[undefined, 256],
		[null, 256],
		['', 256],
		[1, 1],
		[1000, 1000],
		['8', 8],
	])('%p means %p requests in flight at most', (input, value) => {
		expect(parseParallelRequests(input)).toEqual({ ok: true, value });
	});

	it.each([[0], [1001], [2.5], ['many'], [-1]])('%p is refused, naming the option and the range', (input) => {
		expect(parseParallelRequests(input)).toEqual({
			ok: false,
			violation: {
				field: 'parallelRequests',
				message: `Parallel Requests must be a whole number from 1 to 1000 (got ${input})`,
			},
		});
	});
});

describe('Adaptive Parallel Requests (on unless set off, read as a spreadsheet writes it)', () => {
	it.each([
		[undefined, true],
		[true, true],
		[false, false],
		['FALSE', false],
		['off', false],
		[0, false],
		['yes', true],
	])('%p means adaptive: %p', (input, adaptive) => {
		expect(parsePacing(16, input)).toEqual({ ok: true, value: { ceiling: 16, adaptive } });
	});

	it('anything else is refused, naming the option; a bad ceiling is named first', () => {
		expect(parsePacing(16, 'sometimes')).toEqual({
			ok: false,
			violation: { field: 'adaptiveParallelRequests', message: 'Adaptive Parallel Requests must be true or false, got "sometimes"' },
		});
		expect(parsePacing(0, 'sometimes')).toMatchObject({ ok: false, violation: { field: 'parallelRequests' } });
	});
});
