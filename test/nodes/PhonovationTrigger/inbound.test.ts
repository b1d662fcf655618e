import { runWebhook } from '../../harness/webhook';
import {
	encodeForm,
	inboundFields,
	md5,
	postForm,
	refusal,
	RELAY_SECRET,
	TRIGGER_VERSIONS,
	triggerEngine as engineAt,
	triggerNode,
	withField,
	withoutField,
} from './relays';

const ACCEPTED = { status: 200, body: '' };

describe.each(TRIGGER_VERSIONS)(
	'Phonovation Trigger %s: inbound relays through the real webhook context',
	(version) => {
		const triggerEngine = (credential?: Record<string, string>) => engineAt(credential, version);

		it('turns a signed relay into one typed, camelCase item, stamped with when it arrived', async () => {
			const before = new Date().toISOString();
			const out = await postForm(triggerEngine(), inboundFields());
			const after = new Date().toISOString();
			expect({ status: out.status, body: out.body }).toEqual(ACCEPTED);
			// This n8n's clock, not the relay's (unverified.receivedAt): Collect Burst orders a turn by it.
			expect(String(out.items[0].json.arrivedAt) >= before).toBe(true);
			expect(String(out.items[0].json.arrivedAt) <= after).toBe(true);
			expect(out.items).toHaveLength(1);
			expect(out.items[0].json).toEqual({
				event: 'inbound',
				from: '353871111111',
				text: 'Confirm my booking',
				keyword: 'CONFIRM',
				sessionId: 'sms:353871111111',
				relayKey: expect.stringMatching(/^[0-9a-f]{32}$/),
				verified: true,
				arrivedAt: expect.any(String),
				unverified: {
					to: '353877777777',
					notifyId: 'order-001',
					keyphrase: 'CONFIRM',
					type: 'AuthCode',
					network: {
						mcc: '272',
						mnc: '1',
						country: 'Ireland',
						carrier: 'Vodafone Ireland',
						operatorNetwork: true,
					},
					receivedAt: '2026-04-09T16:03:11.000Z',
				},
			});
		});

		it('maps the other carriers, foreign and empty network codes', async () => {
			const engine = triggerEngine();
			const networkOf = async (network: string) =>
				(
					(await postForm(engine, inboundFields({ network }))).items[0].json.unverified as {
						network: unknown;
					}
				).network;
			expect(await networkOf('272/2')).toMatchObject({
				country: 'Ireland',
				carrier: 'Three Ireland',
				operatorNetwork: false,
			});
			expect(await networkOf('272/3')).toMatchObject({ country: 'Ireland', carrier: 'Eir' });
			expect(await networkOf('234/15')).toEqual({
				mcc: '234',
				mnc: '15',
				country: null,
				carrier: null,
				operatorNetwork: false,
			});
			expect(await networkOf('')).toBeNull();
		});

		it('gives null for an empty notifyId, a * keyphrase and a missing timestamp; keeps the Text type', async () => {
			const fields = withoutField(
				inboundFields({ notifyId: '', keyphrase: '*', type: 'Text', content: 'hello there' }),
				'SMS-TimeStamp',
			);
			const { json } = (await postForm(triggerEngine(), fields)).items[0];
			expect(json).toMatchObject({ keyword: 'HELLO', text: 'hello there' });
			expect(json.unverified).toMatchObject({
				notifyId: null,
				keyphrase: null,
				type: 'Text',
				receivedAt: null,
			});
		});

		describe('signature', () => {
			it('refuses tampered content with 401 and starts nothing', async () => {
				const out = await postForm(
					triggerEngine(),
					withField(inboundFields(), 'SMS-Content', 'Cancel my booking'),
				);
				expect(out).toEqual(expect.objectContaining(refusal(401)));
			});

			it('refuses a tampered sender with 401', async () => {
				const out = await postForm(
					triggerEngine(),
					withField(inboundFields(), 'SMS-From', '353879999999'),
				);
				expect(out).toMatchObject({ status: 401, executed: false });
			});

			it('refuses a tampered signature with 401', async () => {
				const fields = inboundFields();
				const verify = fields.find(([k]) => k === 'SMS-Verify')![1];
				const flipped = `${verify.slice(0, -1)}${verify.endsWith('0') ? '1' : '0'}`;
				const out = await postForm(triggerEngine(), withField(fields, 'SMS-Verify', flipped));
				expect(out).toMatchObject(refusal(401));
			});

			it('refuses a truncated or empty signature, and a missing one, with 401', async () => {
				const engine = triggerEngine();
				const fields = inboundFields();
				const verify = fields.find(([k]) => k === 'SMS-Verify')![1];
				expect(
					(await postForm(engine, withField(fields, 'SMS-Verify', verify.slice(0, 31)))).status,
				).toBe(401);
				expect(await postForm(engine, withField(fields, 'SMS-Verify', ''))).toMatchObject(
					refusal(401),
				);
				expect(await postForm(engine, withoutField(fields, 'SMS-Verify'))).toMatchObject(
					refusal(401),
				);
			});

			it('refuses a relay signed with another secret, without echoing either secret', async () => {
				const out = await postForm(triggerEngine(), inboundFields({ secret: 'some-other-secret' }));
				expect(out).toMatchObject({ status: 401, executed: false });
				expect(JSON.stringify(out)).not.toContain(RELAY_SECRET);
				expect(JSON.stringify(out)).not.toContain('some-other-secret');
			});

			it('accepts the signature in upper-case hex', async () => {
				const fields = inboundFields();
				const verify = fields.find(([k]) => k === 'SMS-Verify')![1];
				const out = await postForm(
					triggerEngine(),
					withField(fields, 'SMS-Verify', verify.toUpperCase()),
				);
				expect(out.status).toBe(200);
				expect(out.items[0].json.verified).toBe(true);
			});

			it('does not cover SMS-To or SMS-NotifyId: changing them keeps the relay valid, so they come under unverified', async () => {
				const engine = triggerEngine();
				const genuine = await postForm(engine, inboundFields());
				const fields = withField(
					withField(inboundFields(), 'SMS-To', '353870000000'),
					'SMS-NotifyId',
					'order-999',
				);
				const out = await postForm(engine, fields);
				expect(out.status).toBe(200);
				expect(out.items[0].json).toMatchObject({
					verified: true,
					unverified: expect.objectContaining({ to: '353870000000', notifyId: 'order-999' }),
				});
				expect(out.items[0].json).not.toHaveProperty('notifyId');
				// A replay with other unsigned fields carries the same relayKey, so a workflow can drop it.
				expect(out.items[0].json.relayKey).toBe(genuine.items[0].json.relayKey);
			});

			it('answers a credential without Relay Secret with the same 401 as a bad signature', async () => {
				expect(await postForm(triggerEngine({ relaySecret: '' }), inboundFields())).toMatchObject(
					refusal(401),
				);
			});

			it('answers 401 when the credential cannot be loaded, and starts nothing', async () => {
				const engine = triggerEngine();
				const node = {
					...triggerNode({}, version),
					credentials: { phonovationApi: { id: 'deleted', name: 'Gone' } },
				};
				const out = await runWebhook(engine, node, { body: encodeForm(inboundFields()) });
				expect(out).toMatchObject(refusal(401));
			});

			it('with Verify Signature off, accepts unsigned relays and marks them verified: false', async () => {
				const fields = withoutField(
					withField(inboundFields(), 'SMS-Content', 'forged'),
					'SMS-Verify',
				);
				const out = await postForm(triggerEngine({ relaySecret: '' }), fields, {
					options: { verifySignature: false },
				});
				expect(out.status).toBe(200);
				expect(out.items[0].json).toMatchObject({ text: 'forged', verified: false });
			});
		});

		describe('encoding', () => {
			const content = 'Fáilte! Tá mé ag teacht 👋🏽 ar a 5+2';

			it.each(['plus', 'percent'] as const)(
				'decodes fadas, emoji and a literal + as UTF-8 and verifies them (spaces as %s)',
				async (spaces) => {
					const body = encodeForm(inboundFields({ content }), spaces);
					expect(body).toContain(
						spaces === 'plus' ? 'F%C3%A1ilte%21+T%C3%A1' : 'F%C3%A1ilte!%20T%C3%A1',
					);
					const out = await postForm(triggerEngine(), body);
					expect(out.status).toBe(200);
					expect(out.items[0].json).toMatchObject({ text: content, verified: true });
				},
			);

			it('treats + and %20 alike, also mixed in one body', async () => {
				const from = '353871111111';
				const text = 'see you at 5';
				const verify = md5(from + text + RELAY_SECRET);
				const body = `SMS-From=${from}&SMS-Content=see+you%20at+5&SMS-To=353877777777&SMS-Verify=${verify}`;
				const out = await postForm(triggerEngine(), body);
				expect(out.status).toBe(200);
				expect(out.items[0].json.text).toBe(text);
			});

			it('refuses invalid percent-encoding and invalid UTF-8 with 400', async () => {
				const engine = triggerEngine();
				const base = encodeForm(withoutField(inboundFields(), 'SMS-Content'));
				for (const bad of [
					'SMS-Content=50%ZZ',
					'SMS-Content=%C3%28',
					'SMS-Content=%E2%82',
					'SMS-Content=100%',
				]) {
					expect(await postForm(engine, `${base}&${bad}`)).toMatchObject(refusal(400));
				}
				const rawLatin1 = Buffer.concat([
					Buffer.from(`${base}&SMS-Content=F`),
					Buffer.from([0xe1]),
					Buffer.from('ilte'),
				]);
				expect(await postForm(engine, '', {}, { body: rawLatin1 })).toMatchObject(refusal(400));
			});
		});

		describe('field and header casing', () => {
			it('reads field names case-insensitively (SMS-KeyPhrase, SMS-NotifyID, lower-case)', async () => {
				const renamed = inboundFields().map(([k, v]): [string, string] => {
					if (k === 'SMS-Keyphrase') return ['SMS-KeyPhrase', v];
					if (k === 'SMS-NotifyId') return ['SMS-NotifyID', v];
					return [k.toLowerCase(), v];
				});
				const out = await postForm(triggerEngine(), renamed);
				expect(out.status).toBe(200);
				expect(out.items[0].json).toMatchObject({
					from: '353871111111',
					keyword: 'CONFIRM',
					verified: true,
					unverified: expect.objectContaining({
						keyphrase: 'CONFIRM',
						notifyId: 'order-001',
						receivedAt: '2026-04-09T16:03:11.000Z',
					}),
				});
			});

			it('accepts any casing of the Content-Type header name and value', async () => {
				const out = await postForm(
					triggerEngine(),
					inboundFields(),
					{},
					{
						contentType: null,
						headers: { 'CONTENT-TYPE': 'Application/X-WWW-Form-URLEncoded; Charset=UTF-8' },
					},
				);
				expect(out.status).toBe(200);
				expect(out.items).toHaveLength(1);
			});
		});

		describe('malformed requests', () => {
			it('refuses a repeated SMS field with 400 (n8n makes it an array; the relay is ambiguous)', async () => {
				const engine = triggerEngine();
				const twice = `${encodeForm(inboundFields())}&SMS-Content=other`;
				expect(await postForm(engine, twice)).toMatchObject(refusal(400));
				const twoSpellings = `${encodeForm(inboundFields())}&SMS-NotifyID=order-002`;
				expect(await postForm(engine, twoSpellings)).toMatchObject(refusal(400));
			});

			it("tolerates a repeated field that is not the provider's", async () => {
				const out = await postForm(triggerEngine(), `${encodeForm(inboundFields())}&utm=a&utm=b`);
				expect(out.status).toBe(200);
			});

			it('refuses an empty body with 400', async () => {
				expect(await postForm(triggerEngine(), '')).toMatchObject(refusal(400));
			});

			it('refuses a body over 64 KiB with 413 and starts nothing', async () => {
				const huge = `${encodeForm(inboundFields())}&padding=${'a'.repeat(1024 * 1024)}`;
				expect(await postForm(triggerEngine(), huge)).toMatchObject(refusal(413));
			});

			it('accepts a long but reasonable message', async () => {
				const content = 'á'.repeat(2000);
				const out = await postForm(triggerEngine(), inboundFields({ content }));
				expect(out.status).toBe(200);
				expect(out.items[0].json.text).toBe(content);
			});

			it('refuses a relay without a signed field with 401: its signature cannot match', async () => {
				const engine = triggerEngine();
				expect(await postForm(engine, withoutField(inboundFields(), 'SMS-Content'))).toMatchObject(
					refusal(401),
				);
				expect(await postForm(engine, withoutField(inboundFields(), 'SMS-From'))).toMatchObject(
					refusal(401),
				);
			});

			it('refuses a genuinely signed relay that lacks the sender with 400', async () => {
				// Signed over an empty sender and the whole text, as a shifted From/Content boundary would be.
				const fields = withoutField(
					inboundFields({ from: '', content: '353871111111Hi' }),
					'SMS-From',
				);
				expect(await postForm(triggerEngine(), fields)).toMatchObject(refusal(400));
			});

			it('refuses missing fields with 400 when signatures are not checked', async () => {
				const engine = triggerEngine();
				const unchecked = { options: { verifySignature: false } };
				expect(
					await postForm(engine, withoutField(inboundFields(), 'SMS-Content'), unchecked),
				).toMatchObject(refusal(400));
				expect(
					await postForm(engine, withoutField(inboundFields(), 'SMS-From'), unchecked),
				).toMatchObject(refusal(400));
			});

			it('refuses a form that is no relay at all with 400', async () => {
				expect(await postForm(triggerEngine(), 'name=Jane&message=hello')).toMatchObject(
					refusal(400),
				);
			});

			it.each([
				['2026-13-09 16:03:11', 'month 13'],
				['0000-04-09 16:03:11', 'year 0000'],
				['2026-02-30 10:00:00', 'February 30'],
				['2026-04-09 24:00:00', 'hour 24'],
				['yesterday', 'garbage'],
				['2026-04-09T16:03:11+01:00', 'an offset'],
			])('refuses an SMS-TimeStamp of %s (%s) with 400', async (timestamp) => {
				expect(await postForm(triggerEngine(), inboundFields({ timestamp }))).toMatchObject(
					refusal(400),
				);
			});

			it('checks the signature before the timestamp: an unsigned relay with a bad one gets 401', async () => {
				const forged = withField(
					inboundFields({ timestamp: 'yesterday' }),
					'SMS-Verify',
					'0'.repeat(32),
				);
				expect(await postForm(triggerEngine(), forged)).toMatchObject(refusal(401));
			});

			it('answers a failure outside the relay checks with the generic 400, not a 500', async () => {
				// A Keywords expression naming a node that is not there: n8n throws while reading the option.
				const broken = { options: { keywords: '={{ $("Renamed Node").item.json.keywords }}' } };
				expect(await postForm(triggerEngine(), inboundFields(), broken)).toMatchObject(
					refusal(400),
				);
			});

			it('never answers 500, whatever bytes arrive', async () => {
				const engine = triggerEngine();
				let seed = 42;
				const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
				for (let i = 0; i < 40; i++) {
					const bytes = Buffer.from(
						Array.from({ length: 1 + Math.floor(random() * 300) }, () =>
							Math.floor(random() * 256),
						),
					);
					const out = await postForm(engine, '', {}, { body: bytes });
					expect(out).toMatchObject(refusal(out.status as 400 | 401 | 413));
				}
			});
		});

		describe('content type confusion', () => {
			it('a form relay labelled as a JSON type is a processing result: 401 without the URL token', async () => {
				const out = await postForm(
					triggerEngine(),
					inboundFields(),
					{},
					{ contentType: 'application/vnd.api+json' },
				);
				expect(out).toMatchObject(refusal(401));
			});

			it('a form relay labelled as a JSON type with the URL token is not valid JSON: 400', async () => {
				const engine = triggerEngine({ relaySecret: RELAY_SECRET, urlToken: 'tok-1' });
				const out = await postForm(
					engine,
					inboundFields(),
					{ events: ['processingResult'] },
					{
						contentType: 'application/vnd.api+json',
						query: { token: 'tok-1' },
					},
				);
				expect(out).toMatchObject(refusal(400));
			});

			it.each([['text/plain'], ['multipart/form-data; boundary=x'], [null]])(
				'a relay sent as %s is refused with 400',
				async (contentType) => {
					expect(
						await postForm(triggerEngine(), inboundFields(), {}, { contentType }),
					).toMatchObject(refusal(400));
				},
			);

			it('a JSON document sent as a form is not a relay: 400', async () => {
				const json = JSON.stringify({ 'SMS-From': '353871111111', 'SMS-Content': 'hi' });
				expect(await postForm(triggerEngine(), json)).toMatchObject(refusal(400));
			});
		});

		describe('raw fields', () => {
			it('keeps the legacy SMS-AuthCode and SMS-GroupCode out of items unless Include Raw Fields is on', async () => {
				const engine = triggerEngine();
				const plain = await postForm(engine, inboundFields());
				expect(JSON.stringify(plain.items)).not.toMatch(/AUTH:|SMS-AuthCode|SMS-GroupCode/);

				const raw = await postForm(engine, inboundFields(), { options: { includeRaw: true } });
				expect(raw.items[0].json.raw).toEqual(
					Object.fromEntries(withoutField(inboundFields(), 'SMS-Verify')),
				);
				expect(raw.items[0].json.raw).toMatchObject({
					'SMS-AuthCode': 'AUTH:reply/1450707',
					'SMS-GroupCode': 'AUTH:G353870934726/*',
				});
			});
		});

		it('verifies from the parsed body when the host gives no raw body', async () => {
			const engine = triggerEngine();
			const ok = await postForm(
				engine,
				inboundFields({ content: 'Tá go maith' }),
				{},
				{ withRawBody: false },
			);
			expect(ok.status).toBe(200);
			expect(ok.items[0].json).toMatchObject({ text: 'Tá go maith', verified: true });
			const tampered = await postForm(
				engine,
				withField(inboundFields(), 'SMS-Content', 'x'),
				{},
				{ withRawBody: false },
			);
			expect(tampered).toMatchObject(refusal(401));
			const twice = await postForm(
				engine,
				`${encodeForm(inboundFields())}&SMS-Content=x`,
				{},
				{ withRawBody: false },
			);
			expect(twice).toMatchObject(refusal(400));
		});
	},
);
