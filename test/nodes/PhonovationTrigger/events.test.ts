import {
	encodeForm,
	IGNORED,
	inboundFields,
	postForm,
	postJson,
	receiptFields,
	refusal,
	RELAY_SECRET,
	TRIGGER_VERSIONS,
	triggerEngine as engineAt,
	withField,
	withoutField,
} from './relays';

/** The trigger's `arrivedAt`: when this n8n received the relay. */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ALL_EVENTS = ['deliveryReceipt', 'inbound', 'optOut', 'processingResult'];

describe.each(TRIGGER_VERSIONS)('Phonovation Trigger %s', (version) => {
	const triggerEngine = (credential?: Record<string, string>) => engineAt(credential, version);

	describe('opt-outs', () => {
		const optOut = (content: string) =>
			inboundFields({ to: '50123', content, keyphrase: '*', notifyId: '' });

		it('recognises SMS-To 50123 as an opt-out with the keyword and a suppression hint', async () => {
			const out = await postForm(triggerEngine(), optOut('STOP'));
			expect(out.status).toBe(200);
			expect(out.items[0].json).toEqual({
				event: 'optOut',
				arrivedAt: expect.stringMatching(ISO_TIME),
				from: '353871111111',
				text: 'STOP',
				keyword: 'STOP',
				sessionId: 'sms:353871111111',
				optOutKeyword: 'STOP',
				hint: expect.stringMatching(/suppression list/),
				relayKey: expect.stringMatching(/^[0-9a-f]{32}$/),
				verified: true,
				unverified: {
					to: '50123',
					notifyId: null,
					keyphrase: null,
					type: 'AuthCode',
					network: {
						mcc: '272',
						mnc: '1',
						country: 'Ireland',
						carrier: 'Vodafone Ireland',
						operatorNetwork: true,
					},
					receivedAt: '2026-04-09T16:03:11.000Z',
					via: 'shortcode',
				},
			});
		});

		it.each([
			['OPTOUT', 'OPTOUT'],
			['Stop.', 'STOP'],
			['  stop  ', 'STOP'],
			['Unsubscribe', 'UNSUBSCRIBE'],
			['opt-out', 'OPT OUT'],
		])('reads the opt-out keyword of "%s" as %s', async (content, keyword) => {
			const out = await postForm(triggerEngine(), optOut(content));
			expect(out.items[0].json).toMatchObject({
				event: 'optOut',
				text: content,
				optOutKeyword: keyword,
			});
			expect(out.items[0].json.unverified).toMatchObject({ via: 'shortcode' });
		});

		it.each(['optout please', 'Stop. Thank you', 'please stop texting me', 'Yes please'])(
			'makes "%s" to 50123 an inbound item that says where it was sent, not an opt-out',
			async (content) => {
				const out = await postForm(triggerEngine(), optOut(content));
				expect(out.items[0].json).toMatchObject({
					event: 'inbound',
					text: content,
					hint: expect.stringMatching(
						/^Texted to the opt-out shortcode 50123 .* not treated as an opt-out/,
					),
					unverified: expect.objectContaining({ to: '50123' }),
				});
				expect(out.items[0].json).not.toHaveProperty('optOutKeyword');
			},
		);

		it('refuses an opt-out with a bad signature (401)', async () => {
			const out = await postForm(
				triggerEngine(),
				withField(optOut('STOP'), 'SMS-From', '353870000000'),
			);
			expect(out).toMatchObject(refusal(401));
		});

		it('acknowledges but ignores opt-outs when the event is not selected', async () => {
			const out = await postForm(triggerEngine(), optOut('STOP'), { events: ['inbound'] });
			expect(out).toMatchObject(IGNORED);
		});

		it('is never held back by the keyword filter', async () => {
			const out = await postForm(triggerEngine(), optOut('STOP'), {
				options: { keywords: 'CONFIRM' },
			});
			expect(out.items[0].json.event).toBe('optOut');
		});

		it('does not emit plain inbound messages when only opt-outs are selected', async () => {
			const engine = triggerEngine();
			expect(await postForm(engine, inboundFields(), { events: ['optOut'] })).toMatchObject(
				IGNORED,
			);
			expect((await postForm(engine, optOut('STOP'), { events: ['optOut'] })).executed).toBe(true);
		});
	});

	describe('delivery receipts', () => {
		it('turns a signed receipt into a typed item', async () => {
			const out = await postForm(triggerEngine(), receiptFields());
			expect(out.status).toBe(200);
			expect(out.items[0].json).toEqual({
				event: 'deliveryReceipt',
				arrivedAt: expect.stringMatching(ISO_TIME),
				notifyId: '321354',
				delivered: true,
				relayKey: expect.stringMatching(/^[0-9a-f]{32}$/),
				verified: true,
				unverified: {
					to: '353861234567',
					from: 'Phonovation',
					totalToSend: 1,
					totalSent: 1,
					totalFailed: 0,
					receivedAt: '2026-04-09T16:03:16.000Z',
				},
			});
		});

		it("verifies the provider's documented example (SMS-NotifyID, True sent, true hashed)", async () => {
			const body =
				'SMS-Type=Notification&SMS-NotifyID=321354&SMS-Success=True&SMS-To=353871111111&SMS-From=353877777777' +
				'&SMS-Verify=9db038748b3088971d913616c13e769b&SMS-TotalToSend=1&SMS-TotalSent=1&SMS-TotalFailed=0' +
				'&SMS-TimeStamp=2024-01-10+14%3A17%3A44';
			const out = await postForm(triggerEngine({ relaySecret: 'Password1' }), body);
			expect(out.status).toBe(200);
			expect(out.items[0].json).toMatchObject({
				notifyId: '321354',
				delivered: true,
				unverified: expect.objectContaining({ receivedAt: '2024-01-10T14:17:44.000Z' }),
				verified: true,
			});
		});

		it('accepts the success value hashed either as sent or lower-cased', async () => {
			const engine = triggerEngine();
			expect(
				(await postForm(engine, receiptFields({ success: 'True', hashedSuccess: 'True' }))).status,
			).toBe(200);
			expect(
				(await postForm(engine, receiptFields({ success: 'True', hashedSuccess: 'true' }))).status,
			).toBe(200);
			expect(
				(await postForm(engine, receiptFields({ success: 'False', hashedSuccess: 'false' })))
					.status,
			).toBe(200);
		});

		it('reports a partly failed message as not delivered', async () => {
			const out = await postForm(
				triggerEngine(),
				receiptFields({ success: 'False', totals: ['2', '1', '1'] }),
			);
			expect(out.items[0].json).toMatchObject({ delivered: false });
			expect(out.items[0].json.unverified).toMatchObject({
				totalToSend: 2,
				totalSent: 1,
				totalFailed: 1,
			});
		});

		it('refuses a receipt whose success value was flipped (401)', async () => {
			const fields = withField(receiptFields({ success: 'True' }), 'SMS-Success', 'False');
			expect(await postForm(triggerEngine(), fields)).toMatchObject(refusal(401));
		});

		it('refuses a receipt whose notifyId was changed, or that is signed with another secret (401)', async () => {
			const engine = triggerEngine();
			expect(
				await postForm(engine, withField(receiptFields(), 'SMS-NotifyId', '321355')),
			).toMatchObject(refusal(401));
			expect(await postForm(engine, receiptFields({ secret: 'not-the-secret' }))).toMatchObject(
				refusal(401),
			);
			expect(await postForm(engine, withoutField(receiptFields(), 'SMS-Verify'))).toMatchObject(
				refusal(401),
			);
			// Without a signed field the signature cannot match either.
			expect(await postForm(engine, withoutField(receiptFields(), 'SMS-Success'))).toMatchObject(
				refusal(401),
			);
			expect(await postForm(engine, withoutField(receiptFields(), 'SMS-NotifyId'))).toMatchObject(
				refusal(401),
			);
		});

		it('refuses a receipt with an empty notifyId (401): its signature is one value for the whole account', async () => {
			const engine = triggerEngine();
			expect(await postForm(engine, receiptFields({ notifyId: '' }))).toMatchObject(refusal(401));
			expect(
				await postForm(engine, receiptFields({ notifyId: '', success: 'False' })),
			).toMatchObject(refusal(401));
		});

		it('lets a receipt with an empty notifyId through when asked, marked verified: false with the reason', async () => {
			const options = { options: { acceptUnlinkedReceipts: true } };
			const out = await postForm(triggerEngine(), receiptFields({ notifyId: '' }), options);
			expect(out.items[0].json).toMatchObject({
				event: 'deliveryReceipt',
				notifyId: null,
				verified: false,
				hint: expect.stringMatching(
					/^This receipt has no NotifyId\. Its SMS-Verify is the same for every such receipt/,
				),
			});
			// The option does not switch the signature off.
			const forged = receiptFields({ notifyId: '', secret: 'not-the-secret' });
			expect(await postForm(triggerEngine(), forged, options)).toMatchObject(refusal(401));
		});

		it.each([
			['SMS-Success Maybe', receiptFields({ success: 'Maybe' })],
			['SMS-TotalSent one', receiptFields({ totals: ['1', 'one', '0'] })],
			['SMS-TimeStamp on April 31', receiptFields({ timestamp: '2026-04-31 10:00:00' })],
		])('refuses a genuinely signed receipt with %s with 400', async (_what, fields) => {
			expect(await postForm(triggerEngine(), fields)).toMatchObject(refusal(400));
		});

		it('refuses a receipt without SMS-Success with 400 when signatures are not checked', async () => {
			const fields = withoutField(receiptFields(), 'SMS-Success');
			expect(
				await postForm(triggerEngine(), fields, { options: { verifySignature: false } }),
			).toMatchObject(refusal(400));
		});

		it('acknowledges but ignores receipts when the event is not selected', async () => {
			const out = await postForm(triggerEngine(), receiptFields(), {
				events: ['inbound', 'optOut'],
			});
			expect(out).toMatchObject(IGNORED);
		});

		it('accepts unsigned receipts with Verify Signature off, marked verified: false', async () => {
			const out = await postForm(triggerEngine(), withoutField(receiptFields(), 'SMS-Verify'), {
				options: { verifySignature: false },
			});
			expect(out.items[0].json).toMatchObject({ event: 'deliveryReceipt', verified: false });
		});
	});

	describe('processing results', () => {
		const TOKEN = 'url-token-Distinctive-5521';
		const tokenEngine = () => triggerEngine({ relaySecret: RELAY_SECRET, urlToken: TOKEN });
		const selected = { events: ALL_EVENTS };
		const withToken = { query: { token: TOKEN } };
		const success = {
			Status: 'MESSAGE_SUCCESS',
			FinishedAt: '2026-04-09T14:39:40.69257Z',
			Message: 'Your message has been queued.',
			NotifyId: 'order-001',
		};

		it('turns a processing result carrying the URL token into an item', async () => {
			const out = await postJson(tokenEngine(), success, selected, withToken);
			expect(out.status).toBe(200);
			expect(out.items[0].json).toEqual({
				event: 'processingResult',
				arrivedAt: expect.stringMatching(ISO_TIME),
				status: 'MESSAGE_SUCCESS',
				message: 'Your message has been queued.',
				notifyId: 'order-001',
				finishedAt: '2026-04-09T14:39:40.692Z',
				relayKey: expect.stringMatching(/^[0-9a-f]{32}$/),
			});
		});

		it('emits CAMPAIGN_ERROR (no NotifyId) with notifyId null', async () => {
			const out = await postJson(
				tokenEngine(),
				{
					Status: 'CAMPAIGN_ERROR',
					FinishedAt: '2025-06-06T17:50:57.675187Z',
					Message: 'Sender is not valid',
				},
				selected,
				withToken,
			);
			expect(out.items[0].json).toEqual({
				event: 'processingResult',
				arrivedAt: expect.stringMatching(ISO_TIME),
				status: 'CAMPAIGN_ERROR',
				message: 'Sender is not valid',
				notifyId: null,
				finishedAt: '2025-06-06T17:50:57.675Z',
				relayKey: expect.stringMatching(/^[0-9a-f]{32}$/),
			});
		});

		it.each([
			['2025-06-06T17:55:48.6689654Z', '2025-06-06T17:55:48.668Z'],
			['2025-06-06T17:55:48.66896Z', '2025-06-06T17:55:48.668Z'],
			['2025-06-06T17:55:48Z', '2025-06-06T17:55:48.000Z'],
			['2025-06-06T17:55:48.5', '2025-06-06T17:55:48.500Z'],
			['2025-06-06T18:55:48.1+01:00', '2025-06-06T17:55:48.100Z'],
		])('reads FinishedAt %s as %s', async (finishedAt, iso) => {
			const out = await postJson(
				tokenEngine(),
				{ ...success, FinishedAt: finishedAt },
				selected,
				withToken,
			);
			expect(out.items[0].json.finishedAt).toBe(iso);
		});

		it('refuses processing results with 401 when no URL token is configured, even if the URL has one', async () => {
			expect(await postJson(triggerEngine(), success, selected, withToken)).toMatchObject(
				refusal(401),
			);
		});

		it("still accepts the token from the node's old URL Token option when the credential has none", async () => {
			const legacy = { events: ALL_EVENTS, options: { token: TOKEN } };
			const out = await postJson(triggerEngine(), success, legacy, withToken);
			expect(out.items[0].json).toMatchObject({
				event: 'processingResult',
				status: 'MESSAGE_SUCCESS',
			});
			expect(
				await postJson(triggerEngine(), success, legacy, { query: { token: 'guess' } }),
			).toMatchObject(refusal(401));
		});

		it("prefers the credential's URL Token over the old option", async () => {
			const legacy = { events: ALL_EVENTS, options: { token: 'old-node-token' } };
			expect((await postJson(tokenEngine(), success, legacy, withToken)).executed).toBe(true);
			expect(
				await postJson(tokenEngine(), success, legacy, { query: { token: 'old-node-token' } }),
			).toMatchObject(refusal(401));
		});

		it.each([
			['no token', {}],
			['a wrong token', { token: 'url-token-guess' }],
			['the token twice', { token: [TOKEN, TOKEN] }],
			['the token in another case', { token: TOKEN.toUpperCase() }],
		])('refuses a processing result with %s in the URL (401)', async (_label, query) => {
			const out = await postJson(tokenEngine(), success, selected, { query });
			expect(out).toMatchObject(refusal(401));
			expect(JSON.stringify(out)).not.toContain(TOKEN.slice(4));
		});

		it('acknowledges but ignores processing results by default (not selected)', async () => {
			expect(await postJson(tokenEngine(), success, {}, withToken)).toMatchObject(IGNORED);
		});

		it('adds the JSON as received under raw when asked', async () => {
			const out = await postJson(
				tokenEngine(),
				success,
				{ events: ALL_EVENTS, options: { includeRaw: true } },
				withToken,
			);
			expect(out.items[0].json.raw).toEqual(success);
		});

		it.each([
			['FinishedAt tomorrow', { ...success, FinishedAt: 'tomorrow' }],
			['FinishedAt on February 30', { ...success, FinishedAt: '2026-02-30T10:00:00Z' }],
			[
				'FinishedAt with 8 fractional digits',
				{ ...success, FinishedAt: '2026-04-09T14:39:40.12345678Z' },
			],
			['no Status', { Message: 'no status' }],
			['an array', [success]],
			['a numeric Status', { ...success, Status: 1 }],
		])('refuses a processing result with %s with 400', async (_what, value) => {
			expect(await postJson(tokenEngine(), value, selected, withToken)).toMatchObject(refusal(400));
		});

		it('refuses invalid JSON that n8n leaves to the node (a +json type) with 400', async () => {
			const request = { ...withToken, contentType: 'application/problem+json' };
			expect(await postJson(tokenEngine(), '{"Status": ', selected, request)).toMatchObject(
				refusal(400),
			);
		});

		it.each([
			'application/cloudevents+json',
			'application/vnd.phonovation.result+json; charset=utf-8',
		])('accepts a processing result sent as %s', async (contentType) => {
			const out = await postJson(tokenEngine(), success, selected, { ...withToken, contentType });
			expect(out.items[0].json).toMatchObject({ event: 'processingResult', notifyId: 'order-001' });
		});

		it('a processing result sent as a form is not a relay (400)', async () => {
			const out = await postForm(
				tokenEngine(),
				encodeForm(Object.entries(success)),
				selected,
				withToken,
			);
			expect(out).toMatchObject(refusal(400));
		});
	});

	describe('keyword filter', () => {
		const engine = triggerEngine();
		const send = (keywords: string, keyphrase: string, content: string) =>
			postForm(engine, inboundFields({ keyphrase, content }), { options: { keywords } });

		it('lets everything through when no keywords are set', async () => {
			expect((await send('', '*', 'anything at all')).executed).toBe(true);
		});

		it('emits when the first word of the signed text matches, case-insensitively', async () => {
			expect((await send('confirm, cancel', 'CONFIRM', 'Confirm please')).executed).toBe(true);
			const out = await send('CONFIRM, CANCEL', '*', 'cancel! my order');
			expect(out.items[0].json).toMatchObject({ keyword: 'CANCEL', text: 'cancel! my order' });
		});

		it('never routes by the unsigned SMS-Keyphrase: a replayed "yes" with keyphrase CANCEL stays YES', async () => {
			expect(await send('CANCEL', 'CANCEL', 'yes')).toMatchObject(IGNORED);
			const out = await send('YES', 'CANCEL', 'yes');
			expect(out.items[0].json).toMatchObject({
				keyword: 'YES',
				unverified: expect.objectContaining({ keyphrase: 'CANCEL' }),
			});
		});

		it('acknowledges but ignores messages that match no keyword (200, nothing started)', async () => {
			expect(await send('CONFIRM, CANCEL', '*', 'hello there')).toMatchObject(IGNORED);
			expect(await send('CONFIRM', 'BOOK', 'book a table')).toMatchObject(IGNORED);
		});

		it('* selects the messages whose first word is none of the other keywords', async () => {
			expect((await send('*', '*', 'hello there')).executed).toBe(true);
			expect((await send('CONFIRM, *', 'CONFIRM', 'hello there')).executed).toBe(true);
			expect((await send('CONFIRM, *', 'CONFIRM', 'Confirm')).executed).toBe(true);
		});

		it('still checks the signature before filtering', async () => {
			const fields = withField(
				inboundFields({ keyphrase: '*', content: 'hello' }),
				'SMS-Content',
				'hello!',
			);
			const out = await postForm(engine, fields, { options: { keywords: 'CONFIRM' } });
			expect(out).toMatchObject(refusal(401));
		});
	});
});

it('no response, item or error text ever contains the relay secret', async () => {
	const engine = engineAt();
	const outcomes = await Promise.all([
		postForm(engine, inboundFields()),
		postForm(engine, inboundFields({ secret: 'x' })),
		postForm(engine, receiptFields(), { options: { includeRaw: true } }),
		postForm(engine, 'garbage%'),
		postJson(
			engine,
			{ Status: 'MESSAGE_SUCCESS' },
			{ events: ALL_EVENTS },
			{ query: { token: RELAY_SECRET } },
		),
	]);
	for (const out of outcomes) expect(JSON.stringify(out)).not.toContain(RELAY_SECRET);
});
