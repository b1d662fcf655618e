import { sharedFixture } from '../../fixture';

const CAMPAIGN = '/api/v2/Campaign';
const SEND = { resource: 'campaign', operation: 'send', from: 'Phonovation', text: 'Your order shipped' };
const TRANSACTIONAL = { messageType: 'transactional' };
type Json = Record<string, any>;
const jsonOf = (items: Array<{ json: unknown }>) => items.map((i) => i.json as Json);

/** Rows as a spreadsheet or a JSON export hands them over: the same number as a float, as text and as a JS number. */
const ROWS = [{ json: { phone: '353871111111.0' } }, { json: { phone: 353871222222 } }, { json: { phone: '353871333333.00' } }];
const TEXTED = [{ msisdn: '353871111111' }, { msisdn: '353871222222' }, { msisdn: '353871333333' }];

describe('spreadsheet numbers as recipients', () => {
	const fixture = sharedFixture();

	it.each([
		// Read straight from the item (the plain-field fast path) …
		['={{ $json.phone }}'],
		// … and through n8n's expression engine: both must text the same numbers.
		['={{ $json.phone ?? "" }}'],
	])('%s: a float texts its whole number, never the number with its decimal 0 as a digit', async (recipients) => {
		const f = fixture();
		const result = await f.run({ ...SEND, recipients, options: TRANSACTIONAL }, ROWS);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([TEXTED]);
		expect(jsonOf(result.items).map((o) => o.recipients[0].status)).toEqual(['accepted', 'accepted', 'accepted']);
	});

	it('scientific notation is an invalid number with its reason, skipped and reported by default', async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, recipients: '={{ $json.phone }}', options: TRANSACTIONAL }, [
			{ json: { phone: '3.53871E+11' } },
			{ json: { phone: '0871234567' } },
		]);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([[{ msisdn: '353871234567' }]]);
		expect(jsonOf(result.items)[0].recipients[0]).toMatchObject({
			input: '3.53871E+11',
			msisdn: null,
			status: 'invalid',
			reason: 'scientific notation: digits are lost (format the spreadsheet column as text)',
		});
	});

	it('with Invalid Numbers = Fail, scientific notation stops the run before anything is posted', async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, recipients: '0871234567, 3.53871E+11', options: { ...TRANSACTIONAL, invalidNumbers: 'fail' } });
		expect(result.error?.message).toBe(
			'Recipients: Invalid number "3.53871E+11": scientific notation: digits are lost (format the spreadsheet column as text) (item 0)',
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});
});
