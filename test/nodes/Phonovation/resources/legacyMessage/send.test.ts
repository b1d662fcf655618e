import { itemsOf, phonovationFixture, type PhonovationFixture } from '../../fixture';

const LEGACY = {
	resource: 'legacyMessage',
	operation: 'send',
	from: 'Acme',
	text: 'Hello from the old API',
};
const LEGACY_PATH = '/api/v1/sendmessage.aspx';
/** Distinctive, so any trace of it in an error is found. */
const PASSWORD = 'Legacy-Secret-7781';

describe('legacyMessage.send', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture({ senders: [{ name: 'Acme', type: 0 }], password: PASSWORD });
	});
	beforeEach(() => f.reset());
	afterAll(async () => await f.stop());

	it('sends one form-encoded request per item with the API ID, and reports the accepted status', async () => {
		const result = await f.run(
			{ ...LEGACY, to: '={{ $json.phone }}', options: { notifyId: '={{ $json.ref }}' } },
			itemsOf(2, (i) => ({ phone: `087 123 456${i}`, ref: `r${i}` })),
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.legacySends.map((s) => s.form)).toEqual([
			expect.objectContaining({
				user: 'demo',
				api_id: '1234',
				to: '353871234560',
				from: 'Acme',
				notify_id: 'r0',
				text: 'Hello from the old API',
			}),
			expect.objectContaining({ to: '353871234561', notify_id: 'r1' }),
		]);
		expect(result.items.map((i) => i.json)).toEqual([
			{
				success: true,
				code: '0',
				message: 'Request deferred successfully',
				to: '353871234560',
				from: 'Acme',
				notifyId: 'r0',
			},
			{
				success: true,
				code: '0',
				message: 'Request deferred successfully',
				to: '353871234561',
				from: 'Acme',
				notifyId: 'r1',
			},
		]);
		expect(f.sim.count('POST', '/token')).toBe(0);
	});

	it('turns a non-zero status line into an error with the provider message, never the password', async () => {
		f.engine.credentials.set('cred-1', {
			...f.engine.credentials.stored('cred-1'),
			password: 'Legacy-Wrong-Pass-1',
		});
		const result = await f.run({ ...LEGACY, to: '0871234567' });
		expect(result.error?.message).toMatch(/legacy API refused the message \(status [1-9]\d*\)/);
		expect(JSON.stringify(result.error)).not.toContain('Legacy-Wrong-Pass-1');
	});

	it('requires the API ID and sends nothing without it', async () => {
		f.engine.credentials.set('cred-1', { ...f.engine.credentials.stored('cred-1'), apiId: '' });
		const result = await f.run({ ...LEGACY, to: '0871234567' });
		expect(result.error?.message).toMatch(/no API ID.*\(item 0\)/);
		expect(f.sim.legacySends).toHaveLength(0);
		expect(f.sim.requests).toHaveLength(0);
	});

	it.each([
		['several numbers', { to: '0871234567, 0861234567' }, /exactly one number \(got 2\)/],
		['an invalid number', { to: 'abc' }, /To "abc" is not a valid number/],
		['a sender with spaces', { from: 'My Shop' }, /not a legacy sender ID/],
	])('refuses %s before sending', async (_name, change, message) => {
		const result = await f.run({ ...LEGACY, to: '0871234567', ...change });
		expect(result.error?.message).toMatch(message);
		expect(f.sim.requests).toHaveLength(0);
	});

	describe('Text (docs/provider-api.md#legacy-api: 0–160 characters, line breaks as ¬)', () => {
		it('sends CRLF, LF and CR each as one ¬', async () => {
			const result = await f.run({
				...LEGACY,
				to: '0871234567',
				text: 'Line 1\r\nLine 2\nLine 3\rEnd\n\n',
			});
			expect(result.error).toBeUndefined();
			expect(f.sim.legacySends.map((s) => s.form.text)).toEqual(['Line 1¬Line 2¬Line 3¬End¬¬']);
		});

		it('sends 160 characters, a line break counting as one', async () => {
			const result = await f.run({ ...LEGACY, to: '0871234567', text: `${'x'.repeat(158)}\r\ny` });
			expect(result.error).toBeUndefined();
			expect(f.sim.legacySends.map((s) => s.form.text)).toEqual([`${'x'.repeat(158)}¬y`]);
		});

		it.each([
			[
				'161 characters',
				'x'.repeat(161),
				'Text is too long: 161 characters, the limit is 160 (item 0)',
			],
			[
				'160 characters and a line break',
				`${'x'.repeat(160)}\n`,
				'Text is too long: 161 characters, the limit is 160 (item 0)',
			],
			[
				'2000 characters, the campaign limit',
				'x'.repeat(2000),
				'Text is too long: 2000 characters, the limit is 160 (item 0)',
			],
			// An expression that comes out empty: n8n itself refuses a Text left blank in the editor.
			['empty text', '={{ "" }}', 'Text is empty (item 0)'],
			['only spaces', '   ', 'Text is empty (item 0)'],
		])('refuses %s before sending', async (_name, text, message) => {
			const result = await f.run({ ...LEGACY, to: '0871234567', text });
			expect(result.error?.message).toBe(message);
			expect(f.sim.requests).toHaveLength(0);
		});
	});

	it('refuses a Notify ID over 30 characters before sending, naming it and the item', async () => {
		const result = await f.run({
			...LEGACY,
			to: '0871234567',
			options: { notifyId: 'n'.repeat(31) },
		});
		expect(result.error?.message).toBe(
			'Notify ID is too long: 31 characters, the limit is 30 (item 0)',
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	it('sends a Notify ID of exactly 30 characters', async () => {
		const result = await f.run({
			...LEGACY,
			to: '0871234567',
			options: { notifyId: 'n'.repeat(30) },
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.legacySends[0].form.notify_id).toBe('n'.repeat(30));
	});

	describe('the password never reaches an error', () => {
		it('masks it when the status line echoes it', async () => {
			f.sim.injectFault(LEGACY_PATH, {
				kind: 'answer',
				status: 200,
				body: `1\nAuthentication failed for demo with password ${PASSWORD}\n`,
			});
			const result = await f.run({ ...LEGACY, to: '0871234567' });
			expect(result.error?.message).toBe(
				"Phonovation's legacy API refused the message (status 1): Authentication failed for demo with password ***",
			);
			expect(JSON.stringify(result.error)).not.toContain(PASSWORD);
		});

		it('masks it in a non-200 answer, which is reported with its status', async () => {
			f.sim.injectFault(LEGACY_PATH, {
				kind: 'status',
				status: 503,
				body: `Gateway down (login demo/${PASSWORD})`,
			});
			const result = await f.run({ ...LEGACY, to: '0871234567' });
			expect(result.error?.message).toBe(
				"Phonovation's legacy API answered HTTP 503: Gateway down (login demo/***)",
			);
			expect(result.error?.description).toMatch(/whether this one was sent is unknown/);
			expect(JSON.stringify(result.error)).not.toContain(PASSWORD);
		});

		it('keeps it out of a network failure', async () => {
			f.sim.injectFault(LEGACY_PATH, { kind: 'reset' });
			const result = await f.run({ ...LEGACY, to: '0871234567' });
			expect(result.error?.message).toBe(
				'Could not reach Phonovation for the legacy send: the connection was closed before an answer arrived',
			);
			expect(JSON.stringify(result.error)).not.toContain(PASSWORD);
			expect(f.sim.legacySends).toHaveLength(0);
		});
	});

	describe('Continue On Fail', () => {
		const rows = [
			{ phone: '0871234560', from: 'Acme', text: 'first' },
			{ phone: '0871234561', from: 'Acme', text: 'x'.repeat(161) },
			{ phone: '0871234562', from: 'Stranger', text: 'third' },
			{ phone: '0871234563', from: 'Acme', text: 'fourth' },
		];
		const perItem = {
			...LEGACY,
			to: '={{ $json.phone }}',
			from: '={{ $json.from }}',
			text: '={{ $json.text }}',
		};

		it('turns an invalid item and a refused one into error items and sends the others', async () => {
			const result = await f.run(
				perItem,
				rows.map((json) => ({ json })),
				{ onError: 'continueRegularOutput' },
			);
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => i.json)).toEqual([
				expect.objectContaining({ success: true, to: '353871234560' }),
				{ error: 'Text is too long: 161 characters, the limit is 160 (item 1)' },
				{
					error:
						"Phonovation's legacy API refused the message (status 5): Sender not allowed: Stranger",
				},
				expect.objectContaining({ success: true, to: '353871234563' }),
			]);
			expect(result.items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
			expect(f.sim.legacySends.map((s) => s.form.text)).toEqual(['first', 'fourth']);
		});

		it('without it, sends nothing when any item is invalid', async () => {
			const result = await f.run(
				perItem,
				rows.map((json) => ({ json })),
			);
			expect(result.error?.message).toBe(
				'Text is too long: 161 characters, the limit is 160 (item 1)',
			);
			expect(f.sim.requests).toHaveLength(0);
		});
	});
});
