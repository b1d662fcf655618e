import { readRelayBody } from '../../../../nodes/PhonovationTrigger/incoming/readBody';
import { rejectionOf } from '../support';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

describe('relay body: content types', () => {
	it.each([
		[
			'form, in any case and with parameters',
			'Application/X-WWW-Form-Urlencoded ; charset=UTF-8',
			'form',
		],
		['form, given twice', ['application/x-www-form-urlencoded', 'text/plain'], 'form'],
		['JSON', 'application/json', 'json'],
		['a +json type', 'application/problem+json', 'json'],
	])('reads %s', async (_name, type, kind) => {
		const body = await readRelayBody({
			headers: { 'content-type': type },
			rawBody: Buffer.from(kind === 'form' ? 'a=1' : '{"Status":"X"}'),
		});
		expect(body.kind).toBe(kind);
	});

	it.each([
		['text/plain'],
		['text/json'],
		['xapplication/a+json'],
		['application/a+jsonx'],
		['application/a/b+json'],
		[undefined],
	])('refuses %s with 400', async (type) => {
		await expect(
			readRelayBody({ headers: { 'content-type': type }, rawBody: Buffer.from('a=1') }),
		).rejects.toMatchObject({
			status: 400,
			detail:
				'Unsupported content type: relays and receipts are form-encoded, processing results JSON',
		});
	});
});

describe('relay body: bytes', () => {
	it('drops a UTF-8 byte order mark', async () => {
		const body = await readRelayBody({
			headers: FORM,
			rawBody: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('SMS-From=1')]),
		});
		expect(body.kind === 'form' && body.fields.get('SMS-From')).toBe('1');
	});

	it('refuses a form that is not UTF-8 with 400', async () => {
		await expect(
			readRelayBody({ headers: FORM, rawBody: Buffer.from([0x61, 0x3d, 0xff]) }),
		).rejects.toMatchObject({
			status: 400,
			detail: 'Body is not valid UTF-8',
		});
	});

	it('reads each body afresh after one cut off in the middle of a character (one decoder serves every relay)', async () => {
		// 0xe2 0x82 starts a three-byte character (€) that never ends.
		await expect(
			readRelayBody({ headers: FORM, rawBody: Buffer.from([0x61, 0x3d, 0xe2, 0x82]) }),
		).rejects.toMatchObject({
			status: 400,
			detail: 'Body is not valid UTF-8',
		});
		// Its last byte alone: refused, not joined to the cut-off start above into a €.
		await expect(
			readRelayBody({ headers: FORM, rawBody: Buffer.from([0xac, 0x3d, 0x31]) }),
		).rejects.toMatchObject({
			status: 400,
			detail: 'Body is not valid UTF-8',
		});
		const good = await readRelayBody({ headers: FORM, rawBody: Buffer.from('SMS-From=€1') });
		expect(good.kind === 'form' && good.fields.get('SMS-From')).toBe('€1');
	});

	it('reads JSON only when asked, so its token is checked first', async () => {
		const body = await readRelayBody({ headers: JSON_TYPE, rawBody: Buffer.from([0x7b, 0xff]) });
		expect(body.kind).toBe('json');
		expect(rejectionOf(() => body.kind === 'json' && body.value())).toMatchObject({
			status: 400,
			detail: 'Body is not valid UTF-8',
		});
		const good = await readRelayBody({
			headers: JSON_TYPE,
			rawBody: Buffer.from('{"Status":"X"}'),
		});
		expect(good.kind === 'json' && good.value()).toEqual({ Status: 'X' });
	});

	it.each([
		['null', 'JSON body is not an object'],
		['42', 'JSON body is not an object'],
		['"text"', 'JSON body is not an object'],
		['[]', 'JSON body is not an object'],
		['{', 'Body is not valid JSON'],
		['  ', 'Empty body'],
	])('refuses the JSON %p with 400 when read', async (text, detail) => {
		const body = await readRelayBody({ headers: JSON_TYPE, rawBody: Buffer.from(text) });
		expect(rejectionOf(() => body.kind === 'json' && body.value())).toMatchObject({
			status: 400,
			detail,
		});
	});

	it('refuses an empty form with 400', async () => {
		await expect(
			readRelayBody({ headers: FORM, rawBody: Buffer.from('  ') }),
		).rejects.toMatchObject({ status: 400, detail: 'Empty body' });
	});

	it('refuses bytes n8n read for the node when they are over 64 KiB, with 413', async () => {
		const request = {
			headers: { 'content-type': 'application/cloudevents+json' },
			rawBody: undefined as unknown,
			readRawBody: async () => void (request.rawBody = Buffer.alloc(64 * 1024 + 1, 0x20)),
		};
		await expect(readRelayBody(request)).rejects.toMatchObject({
			status: 413,
			detail: 'Body larger than 64 KiB',
		});
	});
});

describe('relay body: what n8n parsed, when it kept no bytes', () => {
	it('reads a form or JSON given as text', async () => {
		const form = await readRelayBody({ headers: FORM, body: 'SMS-From=1' });
		expect(form.kind === 'form' && form.fields.get('SMS-From')).toBe('1');
		const json = await readRelayBody({ headers: JSON_TYPE, body: '{"Status":"X"}' });
		expect(json.kind === 'json' && json.value()).toEqual({ Status: 'X' });
	});

	it('reads a parsed JSON object as it is', async () => {
		const json = await readRelayBody({ headers: JSON_TYPE, body: { Status: 'X' } });
		expect(json.kind).toBe('json');
		expect(json.kind === 'json' && json.value()).toEqual({ Status: 'X' });
	});

	it.each([
		['nothing', undefined],
		['null', null],
		['a number', 42],
		['an empty object', {}],
		['an empty text', ''],
	])('refuses %s with 400', async (_name, body) => {
		await expect(readRelayBody({ headers: FORM, body })).rejects.toMatchObject({
			status: 400,
			detail: 'Empty body',
		});
	});

	it('refuses a parsed body over 64 KiB with 413', async () => {
		const big = 'a'.repeat(64 * 1024);
		await expect(readRelayBody({ headers: FORM, body: { x: big } })).rejects.toMatchObject({
			status: 413,
		});
		await expect(readRelayBody({ headers: FORM, body: `x=${big}` })).rejects.toMatchObject({
			status: 413,
		});
	});
});

describe('relay body: declared size', () => {
	it('refuses a body whose Content-Length is over 64 KiB before reading a byte of it', async () => {
		let read = false;
		const request = {
			headers: { ...FORM, 'content-length': String(64 * 1024 + 1) },
			readRawBody: async () => void (read = true),
		};
		await expect(readRelayBody(request)).rejects.toMatchObject({
			status: 413,
			detail: 'Body larger than 64 KiB',
		});
		expect(read).toBe(false);
	});

	it('reads a body whose Content-Length is at the limit, or absent, or not a number', async () => {
		for (const length of [String(64 * 1024), undefined, 'lots']) {
			const body = await readRelayBody({
				headers: { ...FORM, 'content-length': length },
				rawBody: Buffer.from('a=1'),
			});
			expect(body.kind).toBe('form');
		}
	});
});
