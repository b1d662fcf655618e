import {
	campaignSettingsSchema,
	LIMITS,
	parseCountryCode,
	readYesNo,
	violationsOf,
} from '../../../../nodes/Phonovation/domain/rules';

describe('campaign rules (docs/provider-api.md#limits)', () => {
	it('accepts sender and text at their limits', () => {
		expect(
			violationsOf(campaignSettingsSchema, {
				from: 'F'.repeat(LIMITS.from),
				text: 't'.repeat(LIMITS.text),
			}),
		).toEqual([]);
	});

	it('names the field and the limit one past each limit', () => {
		expect(
			violationsOf(campaignSettingsSchema, { from: 'F'.repeat(21), text: 't'.repeat(2001) }),
		).toEqual([
			{ field: 'from', message: 'Sender ID is too long: 21 characters, the limit is 20' },
			{ field: 'text', message: 'Text is too long: 2001 characters, the limit is 2000' },
		]);
	});

	it('refuses blank text and sender', () => {
		expect(
			violationsOf(campaignSettingsSchema, { text: '   ', from: '' }).map((v) => v.message),
		).toEqual(['Sender ID is empty', 'Text is empty']);
	});
});

describe('yes and no as a spreadsheet writes them', () => {
	it.each([
		[true, true],
		[false, false],
		['TRUE', true],
		[' yes ', true],
		['On', true],
		[1, true],
		['0', false],
		['off', false],
		['N', false],
		['', false],
		[null, false],
	])('%p reads as %p', (input, value) => {
		expect(readYesNo(input)).toBe(value);
	});

	it.each([['sometimes'], ['2'], ['tru'], [{}]])('%p is neither', (input) => {
		expect(readYesNo(input)).toBeUndefined();
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

	it.each([
		'1876',
		'0353',
		'IE',
		'3 5 3',
		'+',
		'35',
		'0',
		'999',
		'+35',
		'0035',
		'800',
		'882',
		'388',
		'671',
		'00',
	])('"%s" is refused, naming the option', (input) => {
		expect(parseCountryCode(input)).toEqual({
			ok: false,
			problem: `"${input.trim()}" is not a country calling code (ITU-T E.164), e.g. 353 for Ireland or 44 for the UK`,
		});
	});

	it.each([['33'], ['+358'], ['0049'], ['7'], ['998'], ['383']])(
		'"%s" is a country calling code',
		(input) => {
			expect(parseCountryCode(input)).toEqual({ ok: true, code: input.replace(/^(\+|00)/, '') });
		},
	);

	it('shows at most 20 characters of what was typed', () => {
		const result = parseCountryCode('x'.repeat(500));
		expect(result.ok ? '' : result.problem).toBe(
			`"${'x'.repeat(20)}…" is not a country calling code (ITU-T E.164), e.g. 353 for Ireland or 44 for the UK`,
		);
	});
});
