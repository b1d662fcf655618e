import {
	firstWord,
	keywordMatches,
	parseKeywords,
} from '../../../nodes/PhonovationTrigger/events/fields/keywords';
import { networkOf } from '../../../nodes/PhonovationTrigger/events/fields/network';
import {
	finishedAtOf,
	gatewayTimestamp,
} from '../../../nodes/PhonovationTrigger/events/fields/timestamps';
import { assertProcessingResult } from '../../../nodes/PhonovationTrigger/events/processingResult';
import { parseFormBody } from '../../../nodes/PhonovationTrigger/incoming/formBody';
import { jsonField } from '../../../nodes/PhonovationTrigger/incoming/jsonBody';
import { readRelayBody } from '../../../nodes/PhonovationTrigger/incoming/readBody';
import { formRecipeOf } from '../../../nodes/PhonovationTrigger/verification/recipe';
import { rejectionOf } from './support';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('form decoding', () => {
	it('decodes + and %20 as spaces and keeps an encoded + literal', () => {
		const fields = parseFormBody('SMS-Content=a+b%20c%2Bd&empty=&flag');
		expect(fields.get('sms-content')).toBe('a b c+d');
		expect(fields.get('empty')).toBe('');
		expect(fields.get('flag')).toBe('');
	});

	it('keeps the names as received for raw output but looks them up in any case', () => {
		const fields = parseFormBody('SMS-NotifyID=7&SMS-KeyPhrase=YES');
		expect(fields.get('SMS-NotifyId')).toBe('7');
		expect(fields.get('SMS-Keyphrase')).toBe('YES');
		expect({ ...fields.raw }).toEqual({ 'SMS-NotifyID': '7', 'SMS-KeyPhrase': 'YES' });
	});

	it('refuses duplicate SMS fields in any spelling', () => {
		expect(rejectionOf(() => parseFormBody('SMS-From=1&sms-from=2'))).toMatchObject({
			status: 400,
		});
		expect({ ...parseFormBody('x=1&x=2').raw }).toEqual({ x: ['1', '2'] });
	});
});

describe('request body', () => {
	it('refuses oversized raw bodies before anything else', async () => {
		const big = Buffer.alloc(64 * 1024 + 1, 'a');
		await expect(
			readRelayBody({ headers: { 'content-type': 'text/html' }, rawBody: big }),
		).rejects.toMatchObject({
			status: 413,
		});
		const atLimit = await readRelayBody({
			headers: FORM,
			rawBody: Buffer.from(`x=${'a'.repeat(64 * 1024 - 2)}`),
		});
		expect(atLimit.kind === 'form' && atLimit.fields.get('x')?.length).toBe(64 * 1024 - 2);
	});

	it('falls back to a parsed object, turning arrays into duplicates', async () => {
		const body = await readRelayBody({
			headers: FORM,
			body: { 'SMS-From': '1', 'SMS-Content': 'hi' },
		});
		expect(body.kind === 'form' && body.fields.get('sms-content')).toBe('hi');
		await expect(
			readRelayBody({ headers: FORM, body: { 'SMS-From': ['1', '2'] } }),
		).rejects.toMatchObject({
			status: 400,
		});
		await expect(readRelayBody({ headers: FORM, body: {} })).rejects.toMatchObject({ status: 400 });
	});

	it('reads application/*+json as JSON, only when asked, from bytes n8n left unread', async () => {
		const request = {
			headers: { 'content-type': 'application/cloudevents+json; charset=utf-8' },
			rawBody: undefined as unknown,
		};
		const reader = {
			...request,
			readRawBody: async () => void (reader.rawBody = Buffer.from('{"Status":"X"}')),
		};
		const body = await readRelayBody(reader);
		expect(body.kind === 'json' && body.value()).toEqual({ Status: 'X' });
		const broken = await readRelayBody({
			headers: { 'content-type': 'application/json' },
			rawBody: Buffer.from('[1]'),
		});
		expect(broken.kind).toBe('json');
		expect(rejectionOf(() => broken.kind === 'json' && broken.value())).toMatchObject({
			status: 400,
		});
	});
});

describe('event recognition', () => {
	it.each([
		['SMS-Type=Notification&SMS-NotifyId=1', 'receipt'],
		['SMS-Type=notification&SMS-From=Phonovation', 'receipt'],
		['SMS-NotifyId=1&SMS-Success=True', 'receipt'],
		// The unsigned SMS-Type never outweighs a signed field.
		['SMS-Type=AuthCode&SMS-NotifyId=1&SMS-Success=True', 'receipt'],
		['SMS-Type=Notification&SMS-From=1&SMS-Content=True', 'message'],
		['SMS-From=1&SMS-Content=hi&SMS-To=353877777777', 'message'],
		['SMS-From=1&SMS-Content=STOP&SMS-To=50123', 'message'],
		['SMS-Content=hi', 'message'],
		['SMS-From=1', 'message'],
	])('%s is signed as a %s', (body, recipe) => {
		expect(formRecipeOf(parseFormBody(body))).toBe(recipe);
	});

	it('refuses a form that is no relay with 400', () => {
		expect(rejectionOf(() => formRecipeOf(parseFormBody('foo=bar&SMS-To=50123')))).toMatchObject({
			status: 400,
			detail:
				'Not a Phonovation relay: expected SMS-From and SMS-Content (inbound) or SMS-NotifyId and SMS-Success (receipt)',
		});
	});

	it('refuses a relay carrying the signed fields of both recipes with 400', () => {
		expect(
			rejectionOf(() => formRecipeOf(parseFormBody('SMS-From=1&SMS-Content=a&SMS-Success=True'))),
		).toMatchObject({
			status: 400,
			detail: 'A relay carries both SMS-Success (receipt) and SMS-Content (message)',
		});
	});

	it('a processing result needs a Status, in any case', () => {
		expect(() => assertProcessingResult({ status: 'COMPLETED' })).not.toThrow();
		for (const value of [{}, { Status: 1 }, { Message: 'x' }]) {
			expect(rejectionOf(() => assertProcessingResult(value))).toMatchObject({
				status: 400,
				detail: 'Not a Phonovation processing result: expected a JSON object with a Status',
			});
		}
	});

	it('a JSON field spelt exactly as asked wins over another spelling', () => {
		expect(jsonField({ status: 'b', Status: 'a' }, 'Status')).toBe('a');
		expect(jsonField({ status: 'b' }, 'Status')).toBe('b');
		expect(jsonField({ other: 'b' }, 'Status')).toBeUndefined();
	});
});

describe('network codes', () => {
	it('names the Irish carriers by MNC, tolerating a leading zero', () => {
		expect(networkOf('272/01')).toMatchObject({
			mnc: '01',
			carrier: 'Vodafone Ireland',
			operatorNetwork: true,
		});
		expect(networkOf('272/5')).toMatchObject({
			country: 'Ireland',
			carrier: null,
			operatorNetwork: false,
		});
		expect(networkOf('  ')).toBeNull();
		expect(networkOf(undefined)).toBeNull();
	});
});

describe('timestamps', () => {
	it('reads SMS-TimeStamp as UTC', () => {
		expect(gatewayTimestamp('2024-01-10 14:17:44')).toBe('2024-01-10T14:17:44.000Z');
		expect(gatewayTimestamp('2024-02-29 23:59:59')).toBe('2024-02-29T23:59:59.000Z');
		expect(gatewayTimestamp(undefined)).toBeNull();
		expect(rejectionOf(() => gatewayTimestamp('2023-02-29 10:00:00'))).toMatchObject({
			status: 400,
		});
		expect(rejectionOf(() => gatewayTimestamp('2024-01-10 14:60:00'))).toMatchObject({
			status: 400,
		});
	});

	it('reads FinishedAt with 0 to 7 fractional digits, truncated to milliseconds', () => {
		expect(finishedAtOf('2026-04-09T14:39:40.6Z')).toBe('2026-04-09T14:39:40.600Z');
		expect(finishedAtOf('2026-04-09T14:39:40.6999999Z')).toBe('2026-04-09T14:39:40.699Z');
		expect(finishedAtOf('2026-04-09T14:39:40z')).toBe('2026-04-09T14:39:40.000Z');
		expect(finishedAtOf('2026-04-09T16:39:40.1+0200')).toBe('2026-04-09T14:39:40.100Z');
		expect(finishedAtOf(undefined)).toBeNull();
		expect(rejectionOf(() => finishedAtOf(1712673580))).toMatchObject({ status: 400 });
		expect(rejectionOf(() => finishedAtOf('2026-04-09 14:39:40'))).toMatchObject({ status: 400 });
	});
});

describe('keywords', () => {
	it('parses a comma-separated list, upper-cased, ignoring blanks', () => {
		expect(parseKeywords(' confirm, ,Cancel ,*,')).toEqual(['CONFIRM', 'CANCEL', '*']);
	});

	it('takes the first word without trailing punctuation', () => {
		expect(firstWord('  yes!! please')).toBe('YES');
		expect(firstWord('')).toBe('');
		expect(firstWord('rsvp-yes! see you')).toBe('RSVP-YES');
	});

	it('matches the first word of the text; * matches a text whose first word is none of the others', () => {
		expect(keywordMatches(['CONFIRM'], 'confirm')).toBe(true);
		expect(keywordMatches(['CONFIRM'], 'Confirm. See you')).toBe(true);
		expect(keywordMatches(['CONFIRM'], 'no')).toBe(false);
		expect(keywordMatches(['CONFIRM'], '')).toBe(false);
		expect(keywordMatches([], 'y')).toBe(true);
		expect(keywordMatches(['*'], 'whatever')).toBe(true);
		expect(keywordMatches(['*'], '')).toBe(true);
		expect(keywordMatches(['*', 'BOOK'], 'book a table')).toBe(true);
		expect(keywordMatches(['*', 'BOOK'], 'hello')).toBe(true);
	});

	it('takes the first word in linear time, whatever punctuation it ends with', () => {
		expect(firstWord(`${'!'.repeat(20)}a`)).toBe(`${'!'.repeat(20)}A`);
		expect(firstWord(`yes${'!'.repeat(20)}`)).toBe('YES');
		expect(firstWord(`${'.'.repeat(20)}`)).toBe('');
		// 60,000 marks before a letter: a backtracking `\p{P}+$` needed seconds here (the bench measures it).
		expect(firstWord(`${'!'.repeat(60_000)}a`)).toHaveLength(60_001);
	});
});
