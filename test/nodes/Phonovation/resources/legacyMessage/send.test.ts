import { itemsOf, phonovationFixture, type PhonovationFixture } from '../../fixture';

const LEGACY = { resource: 'legacyMessage', operation: 'send', from: 'Acme', text: 'Hello from the old API' };

describe('legacyMessage.send', () => {
	let f: PhonovationFixture;
	beforeAll(async () => {
		f = await phonovationFixture({ senders: [{ name: 'Acme', type: 0 }] });
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
			expect.objectContaining({ user: 'demo', api_id: '1234', to: '353871234560', from: 'Acme', notify_id: 'r0', text: 'Hello from the old API' }),
			expect.objectContaining({ to: '353871234561', notify_id: 'r1' }),
		]);
		expect(result.items.map((i) => i.json)).toEqual([
			{ success: true, code: '0', message: 'Request deferred successfully', to: '353871234560', from: 'Acme', notifyId: 'r0' },
			{ success: true, code: '0', message: 'Request deferred successfully', to: '353871234561', from: 'Acme', notifyId: 'r1' },
		]);
		expect(f.sim.count('POST', '/token')).toBe(0);
	});

	it('turns a non-zero status line into an error with the provider message, never the password', async () => {
		f.engine.credentials.set('cred-1', { ...f.engine.credentials.stored('cred-1'), password: 'Legacy-Wrong-Pass-1' });
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
});
