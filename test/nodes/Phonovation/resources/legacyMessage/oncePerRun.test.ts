import { description as legacySend } from '../../../../../nodes/Phonovation/resources/legacyMessage/send';
import { OPTION_FIELDS } from '../../../../../nodes/Phonovation/resources/campaign/options';
import { itemsOf, sharedFixture } from '../../fixture';

const LEGACY_PATH = '/api/v1/sendmessage.aspx';
const LEGACY = {
	resource: 'legacyMessage',
	operation: 'send',
	from: 'Acme',
	text: 'Your table is ready',
	to: '={{ $json.phone }}',
};
type Json = Record<string, any>;
const jsonOf = (items: Array<{ json: unknown }>) => items.map((i) => i.json as Json);

jest.setTimeout(30_000);

describe('legacy send: one number, one text across the items of a run', () => {
	const fixture = sharedFixture({
		senders: [
			{ name: 'Acme', type: 0 },
			{ name: 'AcmeDesk', type: 0 },
		],
	});

	it('two items naming one number in two spellings post once; the second is a duplicate naming the first', async () => {
		const f = fixture();
		const result = await f.run({ ...LEGACY, options: { notifyId: '={{ $json.ref }}' } }, [
			{ json: { phone: '0871234567', ref: 'booking-1' } },
			{ json: { phone: '+353 87 123 4567', ref: 'booking-2' } },
			{ json: { phone: '0861234567', ref: 'booking-3' } },
		]);
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(2);
		expect(f.sim.legacySends.map((s) => [s.form.to, s.form.notify_id])).toEqual([
			['353871234567', 'booking-1'],
			['353861234567', 'booking-3'],
		]);
		const [first, second, third] = jsonOf(result.items);
		expect(first).toMatchObject({ success: true, to: '353871234567', notifyId: 'booking-1' });
		expect(second).toEqual({
			success: false,
			status: 'duplicate',
			reason:
				'already in this run from item 0, with Notify ID "booking-1"; sent once, as item 0\'s message (its output says how that went)',
			to: '353871234567',
			from: 'Acme',
			notifyId: 'booking-2',
		});
		expect(third).toMatchObject({ success: true, to: '353861234567' });
		expect(result.items.map((i) => i.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
	});

	it('the same number with another text is a message of its own, as in campaign Send: both are posted', async () => {
		const f = fixture();
		const result = await f.run({ ...LEGACY, text: '={{ $json.text }}' }, [
			{ json: { phone: '0871234567', text: 'Your table is ready' } },
			{ json: { phone: '353871234567', text: 'Your bill is ready' } },
		]);
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(2);
		expect(f.sim.legacySends.map((s) => s.form.text)).toEqual([
			'Your table is ready',
			'Your bill is ready',
		]);
		expect(jsonOf(result.items).map((o) => o.success)).toEqual([true, true]);
	});

	it('the same number and text from another sender is posted too (a sender, like a text, splits a campaign)', async () => {
		const f = fixture();
		const result = await f.run({ ...LEGACY, from: '={{ $json.from }}' }, [
			{ json: { phone: '0871234567', from: 'Acme' } },
			{ json: { phone: '0871234567', from: 'Acme' } },
			{ json: { phone: '0871234567', from: 'AcmeDesk' } },
		]);
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(2);
		expect(f.sim.legacySends.map((s) => s.form.from)).toEqual(['Acme', 'AcmeDesk']);
		expect(jsonOf(result.items).map((o) => o.status ?? o.success)).toEqual([
			true,
			'duplicate',
			true,
		]);
	});

	it('an item that failed its checks (Continue On Fail) claims nothing: the next item naming the number is posted', async () => {
		const f = fixture();
		const result = await f.run(
			{ ...LEGACY, text: '={{ $json.text }}' },
			[
				{ json: { phone: '0871234567', text: 'x'.repeat(161) } },
				{ json: { phone: '0871234567', text: 'Hi' } },
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(jsonOf(result.items)).toEqual([
			{ error: 'Text is too long: 161 characters, the limit is 160 (item 0)' },
			expect.objectContaining({ success: true, to: '353871234567' }),
		]);
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(1);
	});
});

describe('legacy send: Exclude Numbers', () => {
	const fixture = sharedFixture({ senders: [{ name: 'Acme', type: 0 }] });

	it("is campaign Send's field: the same name and label, in the Options collection", () => {
		const options = legacySend.find((p) => p.name === 'options')!;
		const field = (options.options as Json[]).find((o) => o.name === 'excludeNumbers');
		const campaign = OPTION_FIELDS.find((o) => o.name === 'excludeNumbers')!;
		expect(field).toMatchObject({
			displayName: campaign.displayName,
			type: campaign.type,
			default: campaign.default,
		});
	});

	it.each([
		['a national number for an international recipient', '087 123 4567', '+353871234567'],
		['an international number for a national recipient', '+353 87 123 4567', '0871234567'],
		['a spreadsheet number that lost its 0', '={{ [871234567] }}', '0871234567'],
		[
			"whole n8n items ($('Opted-Out').all())",
			'={{ [{ json: { phone: "0871234567" }, pairedItem: { item: 0 } }] }}',
			'353871234567',
		],
	])('%s: not posted, and its item says it was excluded', async (_shape, excludeNumbers, to) => {
		const f = fixture();
		const result = await f.run({ ...LEGACY, options: { excludeNumbers } }, [
			{ json: { phone: to } },
			{ json: { phone: '0861234567' } },
		]);
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(1);
		expect(f.sim.legacySends.map((s) => s.form.to)).toEqual(['353861234567']);
		const [excluded, sent] = jsonOf(result.items);
		expect(excluded).toEqual({
			success: false,
			status: 'excluded',
			reason: 'on the Exclude Numbers list',
			to: '353871234567',
			from: 'Acme',
			notifyId: null,
		});
		expect(sent).toMatchObject({ success: true, to: '353861234567' });
	});

	it('every item naming an excluded number is excluded, none a duplicate', async () => {
		const f = fixture();
		const result = await f.run(
			{ ...LEGACY, options: { excludeNumbers: '0871234567' } },
			itemsOf(2, () => ({ phone: '0871234567' })),
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(0);
		expect(jsonOf(result.items).map((o) => o.status)).toEqual(['excluded', 'excluded']);
	});

	it('an entry it cannot read stops the run before anything is posted, naming the field, the entry and the item', async () => {
		const f = fixture();
		const result = await f.run(
			{ ...LEGACY, options: { excludeNumbers: '0871000002, unsubscribed' } },
			itemsOf(2, (i) => ({ phone: `086123456${i}` })),
		);
		expect(result.error?.message).toBe(
			'Exclude Numbers: 1 entry cannot be read as a phone number and would exclude no one — "unsubscribed": contains letters. Fix it (item 0)',
		);
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(0);
		expect(f.sim.requests).toHaveLength(0);
	});

	it('names the item whose own list holds the entry, and shows no value of a field that is not a phone number', async () => {
		const f = fixture();
		const result = await f.run(
			{ ...LEGACY, options: { excludeNumbers: '={{ $json.optedOut }}' } },
			[
				{ json: { phone: '0871000001', optedOut: [{ phone: '0871000009' }] } },
				{ json: { phone: '0871000002', optedOut: [{ apiKey: 'sk_live_abcdef0123456789' }] } },
			],
		);
		expect(result.error?.message).toBe(
			'Exclude Numbers: 1 entry cannot be read as a phone number and would exclude no one — [0].apiKey: contains letters. Fix it (item 1)',
		);
		expect(result.error?.message).not.toMatch(/sk_live/);
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(0);
	});

	it('with Continue On Fail, only the item whose list cannot be read is an error item', async () => {
		const f = fixture();
		const result = await f.run(
			{ ...LEGACY, options: { excludeNumbers: '={{ $json.optedOut }}' } },
			[
				{ json: { phone: '0871000001', optedOut: 'n/a' } },
				{ json: { phone: '0871000002', optedOut: '0871000009' } },
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(jsonOf(result.items)).toEqual([
			{ error: expect.stringMatching(/^Exclude Numbers: 1 entry .*"n\/a".* \(item 0\)$/) },
			expect.objectContaining({ success: true, to: '353871000002' }),
		]);
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(1);
	});
});

describe('the retry record still decides first', () => {
	const fixture = sharedFixture({ senders: [{ name: 'Acme', type: 0 }] });
	const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };

	it('Retry On Fail after a refused item posts neither the sent item nor its duplicate again', async () => {
		const f = fixture();
		f.sim.injectFault(LEGACY_PATH, { kind: 'delay', ms: 0 });
		f.sim.injectFault(LEGACY_PATH, { kind: 'status', status: 429, body: 'busy' });
		const result = await f.run(
			LEGACY,
			[{ phone: '0871234567' }, { phone: '353871234567' }, { phone: '0861234567' }].map((json) => ({
				json,
			})),
			RETRY_ON_FAIL,
		);
		expect(result.error).toBeUndefined();
		// Attempt 1: item 0 and item 2 (429); attempt 2: item 2 only.
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(3);
		expect(f.sim.legacySends.map((s) => s.form.to)).toEqual(['353871234567', '353861234567']);
		const out = jsonOf(result.items);
		expect(out[0]).toMatchObject({
			success: true,
			note: expect.stringMatching(/not posted again/),
		});
		expect(out[1]).toMatchObject({ status: 'duplicate' });
		expect(out[2]).toMatchObject({ success: true, to: '353861234567' });
	});

	it('a retry whose items now compare otherwise never posts, for another item, a message an earlier attempt posted', async () => {
		const f = fixture();
		const parameters = { ...LEGACY, text: '={{ $json.text }}' };
		// Attempt 1: item 0 is refused before sending (Continue On Fail), item 1 is posted.
		const first = await f.run(
			parameters,
			[
				{ json: { phone: '0871234567', text: 'x'.repeat(161) } },
				{ json: { phone: '0871234567', text: 'Hi' } },
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(1);
		// The retry's expression now gives item 0 item 1's text (as `{{ $now }}` may): item 1's record claims it.
		const retried = await f.run(
			parameters,
			itemsOf(2, () => ({ phone: '0871234567', text: 'Hi' })),
			{ onError: 'continueRegularOutput' },
			{ mode: 'retry', contextData: first.run.data.executionData!.contextData! },
		);
		expect(f.sim.count('POST', LEGACY_PATH)).toBe(1);
		const [item0, item1] = jsonOf(retried.items);
		expect(item0).toMatchObject({
			status: 'duplicate',
			reason: expect.stringMatching(/^already in this run from item 1;/),
		});
		expect(item1).toMatchObject({ success: true, note: expect.stringMatching(/not posted again/) });
	});
});
