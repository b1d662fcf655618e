import {
	IGNORED,
	inboundFields,
	postForm,
	refusal,
	TRIGGER_VERSIONS,
	triggerEngine as engineAt,
	withField,
} from './relays';

const LONGCODE = '353877777777';

/** A reply texted to the user's own longcode, as the provider relays it. */
const reply = (content: string) =>
	inboundFields({ to: LONGCODE, content, keyphrase: '*', notifyId: 'order-001' });

describe.each(TRIGGER_VERSIONS)('Phonovation Trigger %s: STOP replies', (version) => {
	const engine = engineAt(undefined, version);

	it('emits a reply that is only "Stop." as an opt-out like one to 50123, saying it came as a reply', async () => {
		const out = await postForm(engine, reply('Stop.'));
		const shortcode = await postForm(
			engine,
			inboundFields({ to: '50123', content: 'Stop.', keyphrase: '*', notifyId: 'order-001' }),
		);
		expect(out.status).toBe(200);
		expect(out.items).toHaveLength(1);
		const { unverified } = shortcode.items[0].json as { unverified: object };
		expect(out.items[0].json).toEqual({
			...shortcode.items[0].json,
			arrivedAt: expect.any(String),
			unverified: { ...unverified, to: LONGCODE, via: 'reply' },
		});
		expect(out.items[0].json).toMatchObject({
			event: 'optOut',
			from: '353871111111',
			text: 'Stop.',
			optOutKeyword: 'STOP',
			verified: true,
		});
		expect(out.items[0].json.hint).toMatch(/suppression list/);
	});

	it.each([
		['STOPALL', 'STOPALL'],
		['unsubscribe', 'UNSUBSCRIBE'],
		['Cancel', 'CANCEL'],
		['end.', 'END'],
		['QUIT!', 'QUIT'],
		['revoke', 'REVOKE'],
		['OptOut', 'OPTOUT'],
		['opt out', 'OPT OUT'],
		[' STOP 🛑 ', 'STOP'],
	])('emits the reply "%s" as an opt-out with the stop word %s', async (content, word) => {
		const { json } = (await postForm(engine, reply(content))).items[0];
		expect(json).toMatchObject({
			event: 'optOut',
			text: content,
			optOutKeyword: word,
			unverified: expect.objectContaining({ via: 'reply' }),
		});
	});

	it.each([
		'we have got to STOP this bill',
		'stop it',
		'the end',
		'nonstop',
		'S T O P',
		'STOP 12345',
	])('keeps the longer reply "%s" an inbound message', async (content) => {
		const { json } = (await postForm(engine, reply(content))).items[0];
		expect(json).toMatchObject({ event: 'inbound', text: content });
		expect(json.unverified).not.toHaveProperty('via');
		expect(json).not.toHaveProperty('optOutKeyword');
	});

	it('keeps STOP replies inbound messages when the option is off', async () => {
		const { json } = (await postForm(engine, reply('STOP'), { options: { stopReplies: false } }))
			.items[0];
		expect(json).toMatchObject({ event: 'inbound', text: 'STOP' });
		expect(json.unverified).not.toHaveProperty('via');
	});

	it('reads options and events given as expressions the same way', async () => {
		const off = await postForm(engine, reply('STOP'), { options: { stopReplies: '={{ 1 > 2 }}' } });
		expect(off.items[0].json).toMatchObject({ event: 'inbound' });
		const onlyOptOuts = { events: "={{ ['opt' + 'Out'] }}" };
		expect(await postForm(engine, reply('YES'), onlyOptOuts)).toMatchObject(IGNORED);
		expect((await postForm(engine, reply('STOP'), onlyOptOuts)).items[0].json).toMatchObject({
			unverified: expect.objectContaining({ via: 'reply' }),
		});
	});

	it('emits a STOP reply when only opt-outs are selected, and ignores other replies', async () => {
		const selected = { events: ['optOut'] };
		expect((await postForm(engine, reply('STOP'), selected)).items[0].json).toMatchObject({
			event: 'optOut',
			unverified: expect.objectContaining({ via: 'reply' }),
		});
		expect(await postForm(engine, reply('YES'), selected)).toMatchObject(IGNORED);
	});

	it('does not emit a STOP reply as an inbound message when only inbound messages are selected', async () => {
		const selected = { events: ['inbound'] };
		expect(await postForm(engine, reply('STOP'), selected)).toMatchObject(IGNORED);
		expect((await postForm(engine, reply('YES'), selected)).items[0].json.event).toBe('inbound');
	});

	it('is not held back by the keyword filter, as no opt-out is', async () => {
		const out = await postForm(engine, reply('Stop'), { options: { keywords: 'YES, NO' } });
		expect(out.items[0].json).toMatchObject({
			event: 'optOut',
			unverified: expect.objectContaining({ via: 'reply' }),
		});
	});

	it('checks the signature first: a forged STOP reply is refused with 401 and starts nothing', async () => {
		const forged = withField(reply('YES'), 'SMS-Content', 'STOP');
		expect(await postForm(engine, forged)).toMatchObject(refusal(401));
	});

	it('with Verify Signature off, still reads STOP replies as opt-outs marked verified: false', async () => {
		const unsigned = withField(reply('STOP'), 'SMS-Verify', '');
		const out = await postForm(engine, unsigned, { options: { verifySignature: false } });
		expect(out.items[0].json).toMatchObject({
			event: 'optOut',
			verified: false,
			unverified: expect.objectContaining({ via: 'reply' }),
		});
	});
});
