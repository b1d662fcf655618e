import {
	encodeForm,
	type Fields,
	inboundFields,
	md5,
	postForm,
	postJson,
	receiptFields,
	refusal,
	RELAY_SECRET,
	TRIGGER_VERSIONS,
	triggerEngine as engineAt,
	withField,
} from './relays';

const SCRIPT = '<script>alert(document.domain)</script>';
const IMAGE = '<img src=x onerror=alert(1)>';
const TOKEN = 'url-token-Refusals-3307';

describe.each(TRIGGER_VERSIONS)('Phonovation Trigger %s: refusals reveal nothing', (version) => {
	const engine = engineAt({ relaySecret: RELAY_SECRET, urlToken: TOKEN }, version);
	const everything = { events: ['deliveryReceipt', 'inbound', 'optOut', 'processingResult'] };

	it('answers the reported reflected-script request with the fixed 401 text, as plain text', async () => {
		const body = `SMS-From=353871111111&SMS-Content=x&SMS-TimeStamp=${encodeURIComponent(SCRIPT)}&SMS-Verify=0`;
		expect(await postForm(engine, body)).toMatchObject(refusal(401));
	});

	it('answers a genuinely signed relay with a script as timestamp with the fixed 400 text', async () => {
		expect(await postForm(engine, inboundFields({ timestamp: SCRIPT }))).toMatchObject(
			refusal(400),
		);
	});

	const withMarkupIn = (fields: Fields, name: string) =>
		withField(fields, name, `${SCRIPT}${IMAGE}`);

	it.each(
		[...inboundFields(), ...receiptFields()]
			.map(([name]) => name)
			.filter((n, i, all) => all.indexOf(n) === i),
	)('never echoes markup put into %s of a relay or receipt', async (name) => {
		for (const fields of [inboundFields(), receiptFields()]) {
			const out = await postForm(engine, withMarkupIn(fields, name), everything);
			if (out.status === 200) continue; // fields the signature does not cover and no check reads
			expect(out).toMatchObject(refusal(out.status as 400 | 401));
		}
	});

	it('never echoes a field name with markup, sent once or twice', async () => {
		const name = `SMS-${IMAGE}`;
		const once = `${encodeForm(inboundFields())}&${encodeURIComponent(name)}=1`;
		expect((await postForm(engine, once)).status).toBe(200);
		expect(await postForm(engine, `${once}&${encodeURIComponent(name)}=2`)).toMatchObject(
			refusal(400),
		);
	});

	it('never echoes markup in a processing result, with or without its token', async () => {
		const result = { Status: SCRIPT, FinishedAt: SCRIPT, Message: IMAGE, [IMAGE]: SCRIPT };
		expect(await postJson(engine, result, everything)).toMatchObject(refusal(401));
		expect(await postJson(engine, result, everything, { query: { token: TOKEN } })).toMatchObject(
			refusal(400),
		);
	});

	it('checks the URL token before reading the JSON: unauthenticated garbage gets the 401', async () => {
		const garbage = { body: '{"Status": ', contentType: 'application/problem+json' };
		expect(await postJson(engine, '', everything, garbage)).toMatchObject(refusal(401));
		const authenticated = { ...garbage, query: { token: TOKEN } };
		expect(await postJson(engine, '', everything, authenticated)).toMatchObject(refusal(400));
	});
});

describe.each(TRIGGER_VERSIONS)('Phonovation Trigger %s: prototype keys are data', (version) => {
	const engine = engineAt({ relaySecret: RELAY_SECRET, urlToken: TOKEN }, version);
	const includeRaw = { events: ['inbound', 'processingResult'], options: { includeRaw: true } };

	it('keeps __proto__, constructor and toString form fields as plain values under raw', async () => {
		const extra =
			'&__proto__=polluted&constructor=one&constructor=two&toString=three&hasOwnProperty=four';
		const out = await postForm(engine, `${encodeForm(inboundFields())}${extra}`, includeRaw);
		const raw = out.items[0].json.raw as Record<string, unknown>;
		expect(Object.getOwnPropertyDescriptor(raw, '__proto__')?.value).toBe('polluted');
		expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
		expect(raw.constructor).toEqual(['one', 'two']);
		expect(raw.toString).toBe('three');
		expect(raw.hasOwnProperty).toBe('four');
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('keeps a __proto__ key of a processing result as data under raw', async () => {
		const body = '{"Status":"MESSAGE_SUCCESS","__proto__":{"polluted":true},"constructor":"c"}';
		const out = await postJson(engine, body, includeRaw, {
			query: { token: TOKEN },
			contentType: 'application/problem+json',
		});
		const raw = out.items[0].json.raw as Record<string, unknown>;
		expect(Object.getOwnPropertyDescriptor(raw, '__proto__')?.value).toEqual({ polluted: true });
		expect(raw.constructor).toBe('c');
		expect((raw as { polluted?: unknown }).polluted).toBeUndefined();
	});

	it('leaves the signature out of raw', async () => {
		const out = await postForm(engine, inboundFields(), includeRaw);
		expect(Object.keys(out.items[0].json.raw as object)).not.toContain('SMS-Verify');
		expect(JSON.stringify(out.items)).not.toContain(
			md5(`353871111111Confirm my booking${RELAY_SECRET}`),
		);
	});
});
