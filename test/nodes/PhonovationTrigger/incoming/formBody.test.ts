import {
	formFieldsFromObject,
	MAX_FIELDS,
	parseFormBody,
} from '../../../../nodes/PhonovationTrigger/incoming/formBody';
import { rejectionOf } from '../support';

describe('form fields', () => {
	it('skips empty pairs and counts fields once in any spelling', () => {
		const fields = parseFormBody('a=1&&b=2&&');
		expect({ ...fields.raw }).toEqual({ a: '1', b: '2' });
		expect(fields.size).toBe(2);
		expect(parseFormBody('x=1&X=2').size).toBe(1);
	});

	it("keeps the first value of a repeated field that is not the provider's", () => {
		expect(parseFormBody('x=1&x=2').get('x')).toBe('1');
	});

	it('keeps the signature out of raw, but readable', () => {
		const fields = parseFormBody('SMS-From=1&SMS-Verify=abc');
		expect(fields.get('sms-verify')).toBe('abc');
		expect({ ...fields.raw }).toEqual({ 'SMS-From': '1' });
	});

	it('refuses a provider field sent twice with 400', () => {
		expect(rejectionOf(() => parseFormBody('SMS-To=1&SMS-TO=2'))).toMatchObject({
			status: 400,
			detail: 'A provider field (SMS-…) appears more than once',
		});
	});

	it.each([
		['a bad escape in a name', '%ZZ=1'],
		['a bad escape in a value', 'SMS-Content=%E0%A4%A'],
		['invalid UTF-8', 'SMS-Content=%FF'],
	])('refuses %s with 400', (_name, body) => {
		expect(rejectionOf(() => parseFormBody(body))).toMatchObject({
			status: 400,
			detail: 'Form body has invalid percent-encoding or invalid UTF-8',
		});
	});

	it('from a body n8n already parsed: strings as they are, numbers as text, nothing as empty', () => {
		const fields = formFieldsFromObject({
			'SMS-From': '353871111111',
			count: 5,
			none: null,
			list: ['a', 'b'],
		});
		expect({ ...fields.raw }).toEqual({
			'SMS-From': '353871111111',
			count: '5',
			none: '',
			list: ['a', 'b'],
		});
		expect(fields.get('count')).toBe('5');
	});

	it("collects a repeated name that is not the provider's in one array, in order", () => {
		expect({ ...parseFormBody('x=1&x=2&x=3&y=0&x=4').raw }).toEqual({
			x: ['1', '2', '3', '4'],
			y: '0',
		});
	});

	it(`takes up to ${MAX_FIELDS} fields and refuses one more with 400`, () => {
		const fields = (count: number) =>
			Array.from({ length: count }, (_, i) => `f${i}=${i}`).join('&');
		expect(parseFormBody(fields(MAX_FIELDS)).size).toBe(MAX_FIELDS);
		expect(rejectionOf(() => parseFormBody(fields(MAX_FIELDS + 1)))).toMatchObject({
			status: 400,
			detail: `More than ${MAX_FIELDS} form fields`,
		});
		// Empty pairs are not fields.
		expect(parseFormBody(`${'&'.repeat(1_000)}a=1`).size).toBe(1);
	});

	it('refuses 64 KiB of one repeated name (a&a&…) with 400, as it would any other flood of fields', () => {
		const flood = Array.from({ length: 32_767 }, () => 'a').join('&');
		expect(rejectionOf(() => parseFormBody(flood))).toMatchObject({
			status: 400,
			detail: `More than ${MAX_FIELDS} form fields`,
		});
		const parsed = Object.fromEntries([
			['SMS-From', '1'],
			['a', Array.from({ length: 1_000 }, () => '')],
		]);
		expect(rejectionOf(() => formFieldsFromObject(parsed))).toMatchObject({ status: 400 });
	});
});
