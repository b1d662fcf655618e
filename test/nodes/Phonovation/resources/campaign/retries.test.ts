import { Settings } from 'luxon';
import type { INodeExecutionData } from 'n8n-workflow';

import type { Fault } from '../../../../simulator';
import { sameForEveryItem } from '../../../../../nodes/Phonovation/resources/campaign/pipeline/readParameters';
import { itemsOf, sharedFixture, type PhonovationFixture } from '../../fixture';
import { until } from '../../../../simulator/test-helpers';

const CAMPAIGN = '/api/v2/Campaign';
// Transactional: the warnings these tests expect are about retries, not opt-out wording.
const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	recipients: '={{ $json.phone }}',
	options: { messageType: 'transactional' },
};
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };
type Json = Record<string, any>;

// Retry On Fail waits at least 1 s between tries (n8n's floor), a 429 at least its Retry-After.
jest.setTimeout(30_000);

/** Request bodies the provider processed (recorded campaigns), as JSON text. */
const processedBodies = (f: PhonovationFixture) =>
	f.sim.campaigns.map((c) => JSON.stringify(c.body));
const postedTwice = (f: PhonovationFixture) => {
	const bodies = processedBodies(f);
	return bodies.filter((b, i) => bodies.indexOf(b) !== i);
};
const personalised = (n: number) =>
	itemsOf(n, (i) => ({ phone: `08712345${10 + i}`, text: `Hi person ${i}` }));
const jsonOf = (items: INodeExecutionData[]) => items.map((i) => i.json as Json);

describe('money safety: retries never post an accepted batch twice', () => {
	const fixture = sharedFixture();

	it.each<[string, Fault]>([
		['429 past the wait bound', { kind: 'status', status: 429, retryAfter: 600 }],
		['503', { kind: 'status', status: 503 }],
	])(
		'Retry On Fail after a %s on campaign 3 of 3 posts campaigns 1 and 2 once',
		async (_name, fault) => {
			const f = fixture();
			f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 }, 2);
			f.sim.injectFault(CAMPAIGN, fault);
			const result = await f.run(
				{ ...SEND, text: '={{ $json.text }}' },
				personalised(3),
				RETRY_ON_FAIL,
			);
			expect(result.error).toBeUndefined();
			expect(f.sim.count('POST', CAMPAIGN)).toBe(4);
			expect(processedBodies(f).map((b) => JSON.parse(b).text)).toEqual([
				'Hi person 0',
				'Hi person 1',
				'Hi person 2',
			]);
			expect(postedTwice(f)).toEqual([]);
			const out = jsonOf(result.items);
			expect(out.map((o) => o.recipients[0].status)).toEqual(['accepted', 'accepted', 'accepted']);
			expect(out[0].warnings).toEqual([
				expect.stringMatching(/earlier attempt of this execution .* not posted again/),
			]);
			expect(out[2].warnings).toEqual([]);
		},
	);

	it('Retry On Fail after a 503 on batch 2 of 2 posts only batch 2 again', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
		const result = await f.run(
			{ ...SEND, text: 'Sale', options: { batchSize: 2 } },
			personalised(4),
			RETRY_ON_FAIL,
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(3);
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo.length)).toEqual([2, 2]);
		expect(postedTwice(f)).toEqual([]);
		expect(jsonOf(result.items).every((o) => o.recipients[0].status === 'accepted')).toBe(true);
	});

	it('a new execution of the same workflow sends again (only retries are deduplicated)', async () => {
		const f = fixture();
		await f.run({ ...SEND, text: 'Twice on purpose' }, personalised(1));
		await f.run({ ...SEND, text: 'Twice on purpose' }, personalised(1));
		expect(f.sim.campaigns).toHaveLength(2);
	});

	it('a 429 with Retry-After: 1 is waited out, repeated once and accepted, and the output says so', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 429, retryAfter: 1 });
		const result = await f.run({ ...SEND, text: 'Hi' }, personalised(1));
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(2);
		expect(f.sim.campaigns).toHaveLength(1);
		const [out] = jsonOf(result.items);
		expect(out.recipients[0].status).toBe('accepted');
		expect(out.campaign.requests).toBe(2);
		expect(out.warnings).toEqual([
			expect.stringMatching(/HTTP 429.*1 request\(s\) were repeated after waiting/),
		]);
	});

	it('429s are repeated at most 3 times, then the error stands', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 429, retryAfter: 0 }, 4);
		const result = await f.run({ ...SEND, text: 'Hi' }, personalised(1));
		expect(result.error?.message).toMatch(/HTTP 429/);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(4);
		expect(f.sim.campaigns).toHaveLength(0);
	});

	it.each<[string, Fault]>([
		['a 500', { kind: 'status', status: 500 }],
		['a dropped connection', { kind: 'reset' }],
	])('%s is never repeated by the node itself', async (_name, fault) => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, fault);
		const result = await f.run({ ...SEND, text: 'Hi' }, personalised(1));
		expect(result.error).toBeDefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
	});
});

describe('honest partial outcomes', () => {
	const fixture = sharedFixture();

	it('Continue On Fail: a half-accepted item names its accepted numbers and its unsent ones', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
		const result = await f.run(
			{
				...SEND,
				text: 'Sale',
				recipients: '0871000001, 0871000002, 0871000003',
				options: { batchSize: 2 },
			},
			[{ json: {} }],
			{ onError: 'continueErrorOutput' },
		);
		expect(result.error).toBeUndefined();
		const [errorOutput] = result.outputs.slice(1);
		expect(result.outputs[0]).toHaveLength(0);
		expect(errorOutput).toHaveLength(1);
		const { error, details: out } = errorOutput[0].json as Json;
		expect(error).toMatch(/HTTP 503 to the campaign \(batch 2 of 2\)/);
		expect(out.recipients.map((r: Json) => [r.msisdn, r.status])).toEqual([
			['353871000001', 'accepted'],
			['353871000002', 'accepted'],
			['353871000003', 'not sent'],
		]);
		expect(out.counts).toMatchObject({ accepted: 2, notSent: 1, unconfirmed: 0 });
	});

	it('without Continue On Fail the error counts and lists the accepted numbers and says where the list is', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
		const result = await f.run({
			...SEND,
			text: 'Sale',
			recipients: '0871000001, 0871000002, 0871000003',
			options: { batchSize: 2 },
		});
		expect(result.error?.description).toMatch(
			/accepted 2 recipient\(s\) of this run \(353871000001, 353871000002\)/,
		);
		expect(result.error?.description).toMatch(/context\.acceptedRecipients/);
		expect(result.error?.context?.acceptedRecipients).toEqual(['353871000001', '353871000002']);
	});

	it.each([
		['an empty body', ''],
		['plain text', 'Created'],
	])(
		'a 201 with %s is unconfirmed and an error: neither accepted nor "not sent", and never success',
		async (_name, body) => {
			const f = fixture();
			f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 201, body });
			const stopped = await f.run({ ...SEND, text: 'Hi', recipients: '0871000001' });
			expect(stopped.error?.message).toMatch(
				/^Phonovation did not confirm the campaign: the provider answered without a readable confirmation/,
			);
			f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 201, body });
			const result = await f.run(
				{ ...SEND, text: 'Hi', recipients: '0871000001' },
				[{ json: {} }],
				{ onError: 'continueRegularOutput' },
			);
			const [{ details: out }] = jsonOf(result.items);
			expect(out.success).toBe(false);
			expect(out.recipients[0]).toMatchObject({
				status: 'unconfirmed',
				reason: expect.stringMatching(/check the provider's report/),
			});
			expect(out.counts).toMatchObject({ accepted: 0, notSent: 0, unconfirmed: 1 });
			expect(out.warnings).toEqual([expect.stringMatching(/1 recipient\(s\) are unconfirmed/)]);
			expect(f.sim.campaigns).toHaveLength(2);
		},
	);

	it('a timeout leaves its batch unconfirmed: Retry On Fail does not post it again, and the run stays an error', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 1500 });
		const result = await f.run(
			{ ...SEND, text: 'Slow', options: { timeout: 1000 } },
			personalised(1),
			RETRY_ON_FAIL,
		);
		// Unknown is never turned into success by a retry: no error workflow would fire for a text that may not have gone.
		expect(result.error?.message).toMatch(
			/^An earlier attempt of this execution could not confirm the campaign: Phonovation did not answer the campaign in time/,
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		// The provider still processes the late request: wait for it here, so it cannot land in the next test.
		await until(() => f.sim.campaigns.length === 1);
	});

	it('with Continue On Fail, a timeout retried stays success: false, unconfirmed, posted once', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 1500 });
		const result = await f.run(
			{ ...SEND, text: 'Slow', options: { timeout: 1000 } },
			personalised(1),
			{
				...RETRY_ON_FAIL,
				onError: 'continueRegularOutput',
			},
		);
		expect(result.error).toBeUndefined();
		const [out] = jsonOf(result.items);
		expect(out.details ?? out).toMatchObject({
			success: false,
			recipients: [expect.objectContaining({ status: 'unconfirmed' })],
		});
		expect(f.sim.count('POST', CAMPAIGN)).toBe(1);
		await until(() => f.sim.campaigns.length === 1);
	});

	it('provider errors naming a number in any written form are matched to that recipient', async () => {
		const f = fixture();
		const errors = [
			'Invalid MSISDN: +353 87 100 0001',
			'Blocked: 00353-87-100-0002',
			'Unreachable handset 0871000003',
			'Numbers 353871000004 353871000005 are barred',
		];
		f.sim.injectFault(CAMPAIGN, {
			kind: 'status',
			status: 201,
			body: { success: true, message: 'Campaign scheduled', errors },
		});
		const result = await f.run(
			{ ...SEND, text: 'Hi' },
			itemsOf(6, (i) => ({ phone: `087100000${i + 1}` })),
		);
		const out = jsonOf(result.items);
		expect(out.map((o) => o.recipients[0].status)).toEqual([
			'rejected by provider',
			'rejected by provider',
			'rejected by provider',
			'rejected by provider',
			'rejected by provider',
			'accepted',
		]);
		expect(out[0].recipients[0].reason).toBe(errors[0]);
		expect(out[2].recipients[0].reason).toBe(errors[2]);
		expect(out[0].campaign.providerErrors).toEqual([]);
	});

	it('provider errors that name no recipient are kept once per campaign, not on every item', async () => {
		const f = fixture();
		const general = 'Campaign queued behind maintenance window';
		f.sim.injectFault(CAMPAIGN, {
			kind: 'status',
			status: 201,
			body: {
				success: true,
				message: 'Campaign scheduled',
				errors: [general, 'Invalid MSISDN: 353871000002'],
			},
		});
		const result = await f.run(
			{ ...SEND, text: 'Hi' },
			itemsOf(2, (i) => ({ phone: `087100000${i + 1}` })),
		);
		const out = jsonOf(result.items);
		expect(out[0].campaign.providerErrors).toEqual([general]);
		expect(out[0].campaign).toBe(out[1].campaign);
		expect(out[0].response.errors).toEqual([]);
	});
});

describe('gateway errors and the moment a run is planned', () => {
	const fixture = sharedFixture();

	it.each([500, 502, 504, 520, 524])(
		'a %i on batch 2 may have been processed: Retry On Fail does not post it again, and the run stays an error',
		async (status) => {
			const f = fixture();
			f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
			f.sim.injectFault(CAMPAIGN, { kind: 'status', status });
			const result = await f.run(
				{ ...SEND, text: 'Sale', options: { batchSize: 2, messageType: 'transactional' } },
				personalised(4),
				RETRY_ON_FAIL,
			);
			expect(result.error?.message).toMatch(
				new RegExp(
					`could not confirm the campaign: Phonovation answered HTTP ${status} to the campaign \\(batch 2 of 2\\)`,
				),
			);
			expect(result.error?.context?.acceptedRecipients).toEqual(['353871234510', '353871234511']);
			expect(f.sim.count('POST', CAMPAIGN)).toBe(2);
		},
	);

	it('processed, then answered 500 on batch 2: with Retry On Fail batch 2 reaches the provider once', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 500, body: 'Internal Server Error' });
		const result = await f.run(
			{ ...SEND, text: 'Sale', options: { batchSize: 2, messageType: 'transactional' } },
			personalised(4),
			{
				...RETRY_ON_FAIL,
				onError: 'continueRegularOutput',
			},
		);
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo.map((r: Json) => r.msisdn))).toEqual([
			['353871234510', '353871234511'],
			['353871234512', '353871234513'],
		]);
		expect(jsonOf(result.items).map((o) => (o.details ?? o).recipients[0].status)).toEqual([
			'accepted',
			'accepted',
			'unconfirmed',
			'unconfirmed',
		]);
	});

	it('a 503 says the provider processed nothing: Retry On Fail posts that batch again, once', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
		const result = await f.run(
			{ ...SEND, text: 'Sale', options: { batchSize: 2, messageType: 'transactional' } },
			personalised(4),
			RETRY_ON_FAIL,
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo.length)).toEqual([2, 2]);
		expect(jsonOf(result.items).map((o) => o.recipients[0].status)).toEqual([
			'accepted',
			'accepted',
			'accepted',
			'accepted',
		]);
	});
});

describe('the ledger', () => {
	it('reads an Exclude Numbers expression once only when no item can change it', () => {
		for (const once of [
			"={{ $('Opted-Out').all().map((item) => item.json.phone) }}",
			"={{ $('Opt').first().json.list }}",
			'={{ ["0871234567"] }}',
		]) {
			expect(sameForEveryItem(once)).toBe(true);
		}
		for (const perItem of [
			'={{ $json.optedOut }}',
			'={{ $node["Opt"].json.list }}',
			"={{ $('Opt').item.json.list }}",
			'={{ $thisItem.json.x }}',
			"={{ $('Opt').all().concat($('Y').item.json.x) }}",
		]) {
			expect(sameForEveryItem(perItem)).toBe(false);
		}
	});
});

describe('a retry plans what the first attempt planned', () => {
	const fixture = sharedFixture();

	it('a sender list that cannot be read sends nothing; Retry On Fail reads it again and sends each number once', async () => {
		const f = fixture();
		f.sim.injectFault('/api/v2/senderlist', { kind: 'status', status: 500 });
		const parameters = {
			...SEND,
			text: 'Hi',
			recipients: '0871000001, 0871000002',
			options: { batchSize: 1, messageType: 'transactional' },
		};
		const failed = await f.run(parameters, [{ json: {} }]);
		expect(failed.error?.message).toMatch(
			/^Sender: Could not read the account's sender list to check Sender ID "Phonovation" \(Phonovation answered HTTP 500/,
		);
		expect(f.sim.campaigns).toHaveLength(0);

		f.sim.injectFault('/api/v2/senderlist', { kind: 'status', status: 500 });
		const retried = await f.run(parameters, [{ json: {} }], RETRY_ON_FAIL);
		expect(retried.error).toBeUndefined();
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo.map((r: Json) => r.msisdn))).toEqual([
			['353871000001'],
			['353871000002'],
		]);
	});

	it('a redirect after processing (303) is unconfirmed: Retry On Fail does not post that batch again', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 303, body: '' });
		const result = await f.run(
			{
				...SEND,
				text: 'Hi',
				recipients: '0871000001, 0871000002',
				options: { batchSize: 1, messageType: 'transactional' },
			},
			[{ json: {} }],
			{ ...RETRY_ON_FAIL, maxTries: 3 },
		);
		expect(result.error?.message).toMatch(
			/could not confirm the campaign: Phonovation answered HTTP 303/,
		);
		expect(f.sim.campaigns.map((c) => c.body.recipientInfo.map((r: Json) => r.msisdn))).toEqual([
			['353871000001'],
			['353871000002'],
		]);
	});

	it('a number two items asked for is not posted again when a retry puts the items in different campaigns', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
		// Item 1 moves to another campaign on the retry (its Campaign Name changes with the clock).
		const regroupAt = Date.now() + 1_000;
		const result = await f.run(
			{
				...SEND,
				text: 'Sale',
				recipients: '={{ $json.phones }}',
				options: {
					batchSize: 1,
					messageType: 'transactional',
					campaignName: `={{ $json.i === 1 && Date.now() > ${regroupAt} ? 'B' : 'A' }}`,
				},
			},
			[
				{ json: { i: 0, phones: '0871000001' } },
				{ json: { i: 1, phones: '0871000001, 0871000002' } },
			],
			{ retryOnFail: true, maxTries: 2, waitBetweenTries: 2_000 },
		);
		expect(result.error).toBeUndefined();
		expect(
			f.sim.campaigns.map((c) => [
				c.body.campaignName,
				c.body.recipientInfo.map((r: Json) => r.msisdn),
			]),
		).toEqual([
			['A', ['353871000001']],
			['B', ['353871000002']],
		]);
	});

	it('an international-only sender is never posted to Irish numbers because the list was unreadable', async () => {
		const f = fixture();
		f.sim.injectFault('/api/v2/senderlist', { kind: 'status', status: 504 });
		const result = await f.run(
			{ ...SEND, from: 'FreeText', text: 'Hi', recipients: '0871000001' },
			[{ json: {} }],
			{
				onError: 'continueRegularOutput',
			},
		);
		expect(jsonOf(result.items)[0].error).toMatch(/Could not read the account's sender list/);
		expect(f.sim.campaigns).toHaveLength(0);
	});

	it('a batch accepted before a retry is recognised by who it texts, though its text holds {{ $now }} with seconds', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
		const text = "=Your code expires at {{ $now.plus({ seconds: 90 }).toFormat('HH:mm:ss.SSS') }}";
		const result = await f.run(
			{ ...SEND, text, options: { batchSize: 2, messageType: 'transactional' } },
			personalised(4),
			RETRY_ON_FAIL,
		);
		expect(result.error).toBeUndefined();
		const sent = f.sim.campaigns.flatMap((c) => c.body.recipientInfo.map((r: Json) => r.msisdn));
		expect(sent.sort()).toEqual(['353871234510', '353871234511', '353871234512', '353871234513']);
		// Each item is its own campaign (its text differs by the millisecond); those accepted before the retry say so.
		const warned = jsonOf(result.items).filter((o) =>
			o.warnings.some((w: string) => /would now carry another text or settings/.test(w)),
		);
		expect(warned.length).toBeGreaterThan(0);
	});

	describe('a retry whose expression now gives another setting reports what the first attempt did', () => {
		const START = Date.UTC(2030, 5, 1, 9, 0, 0, 0);
		/** An expression that gives `then` once the provider has had a campaign request (on the retry), else `before`. */
		const onRetry = (then: string, before: string) =>
			`={{ $now.toMillis() > ${START} ? ${then} : ${before} }}`;
		const previous = Settings.now;
		/** $now stands still at START until the simulator has had a campaign request, then a second later. */
		const clockAfterFirstPost = (f: PhonovationFixture) => {
			Settings.now = () => (f.sim.count('POST', CAMPAIGN) > 0 ? START + 1000 : START);
		};
		afterEach(() => (Settings.now = previous));

		it('switched to Dry Run: the number texted before is reported accepted, not "dry run"', async () => {
			const f = fixture();
			clockAfterFirstPost(f);
			f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
			f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
			const options = {
				batchSize: 1,
				messageType: 'transactional',
				dryRun: onRetry('true', 'false'),
			};
			const result = await f.run(
				{ ...SEND, recipients: '0871234510, 0871234511', text: 'Sale', options },
				[{ json: {} }],
				RETRY_ON_FAIL,
			);
			expect(result.error).toBeUndefined();
			expect(f.sim.campaigns.map((c) => c.body.recipientInfo.map((r: Json) => r.msisdn))).toEqual([
				['353871234510'],
			]);
			const [out] = jsonOf(result.items);
			expect(out.recipients.map((r: Json) => r.status)).toEqual(['accepted', 'dry run']);
		});

		it('set apart by a rule on the retry, with On Error = stop: the error names the number the first attempt left unconfirmed', async () => {
			const f = fixture();
			clockAfterFirstPost(f);
			f.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 500, body: 'Internal Server Error' });
			const options = { messageType: 'transactional', notifyId: onRetry("'x'.repeat(31)", "'ok'") };
			const result = await f.run(
				{ ...SEND, recipients: '0871234510', text: 'Sale', options },
				[{ json: {} }],
				RETRY_ON_FAIL,
			);
			expect(f.sim.campaigns).toHaveLength(1);
			expect(result.error?.message).toBe(
				'Notify ID is too long: 31 characters, the limit is 30 (item 0)',
			);
			expect((result.error as { description?: string }).description).toMatch(
				/^Nothing was sent for this campaign on this attempt\. An earlier attempt of this execution could not confirm 1 recipient\(s\) \(353871234510\): they may have been texted/,
			);
		});
	});
});
