import { peakOverlap } from '../../../../simulator';
import { itemsOf, PERSONALISED_SEND, sharedFixture, type PhonovationFixture } from '../../fixture';

const CAMPAIGN = '/api/v2/Campaign';
const SEND = PERSONALISED_SEND;
type Json = Record<string, any>;

jest.setTimeout(60_000);

const people = (n: number) =>
	itemsOf(n, (i) => ({ phone: `0879${String(i).padStart(6, '0')}`, name: `P${i}` }));
/** Index of the n-th (0-based) event of this kind, or the end. */
const nthIndex = (timeline: Array<{ event: string }>, event: string, n: number) => {
	let seen = -1;
	const at = timeline.findIndex((e) => e.event === event && ++seen === n);
	return at < 0 ? timeline.length : at;
};
const jsonOf = (items: Array<{ json: unknown }>) => items.map((i) => i.json as Json);
const msisdnOf = (i: number) => `353879${String(i).padStart(6, '0')}`;
/** Every campaign the provider processed, by its text; each must appear once. */
const processedTexts = (f: PhonovationFixture) => f.sim.campaigns.map((c) => c.body.text as string);
/** Each request held long enough that the node's parallel requests overlap at the provider. */
const slowProvider = (f: PhonovationFixture, n: number) =>
	f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 150 }, n);

describe('personalised campaigns go out in parallel', () => {
	const fixture = sharedFixture();

	it('40 personalised items: 40 campaigns, several in flight at once but never more than Parallel Requests', async () => {
		const f = fixture();
		slowProvider(f, 40);
		const result = await f.run({ ...SEND, options: { parallelRequests: 4 } }, people(40));
		expect(result.error).toBeUndefined();
		expect(processedTexts(f).sort()).toEqual(
			people(40)
				.map((p) => `Hi ${p.json.name}`)
				.sort(),
		);
		const peak = peakOverlap(f.sim.timeline, CAMPAIGN);
		expect(peak).toBeGreaterThan(1);
		expect(peak).toBeLessThanOrEqual(4);
	});

	it('output items stay in input order with their pairedItem, whatever order the answers came in', async () => {
		const f = fixture();
		slowProvider(f, 30);
		const result = await f.run(SEND, people(30));
		expect(result.items.map((i) => i.pairedItem)).toEqual(people(30).map((_, i) => ({ item: i })));
		expect(jsonOf(result.items).map((o) => o.recipients[0].msisdn)).toEqual(
			people(30).map((_, i) => msisdnOf(i)),
		);
	});

	it("one campaign's batches still go out one after the other, in order", async () => {
		const f = fixture();
		slowProvider(f, 5);
		const result = await f.run(
			{ ...SEND, text: 'Same text', recipients: '={{ $json.phone }}', options: { batchSize: 2 } },
			people(10),
		);
		expect(result.error).toBeUndefined();
		expect(peakOverlap(f.sim.timeline, CAMPAIGN)).toBe(1);
		expect(f.sim.campaigns.flatMap((c) => c.body.recipientInfo.map((r: Json) => r.msisdn))).toEqual(
			people(10).map((_, i) => msisdnOf(i)),
		);
	});

	it('pinned, a 429 pauses everyone and halves the number: the refused one is repeated, nothing else', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 150 }, 8);
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 429, retryAfter: 1 });
		// The 4 sent after the pause are held longer: on a loaded machine all 4 are open at once
		// before the first is answered, whatever the order the event loop gets to them.
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 600 }, 4);
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 150 }, 36);
		const result = await f.run(
			{ ...SEND, options: { parallelRequests: 8, adaptiveParallelRequests: false } },
			people(40),
		);
		expect(result.error).toBeUndefined();
		expect(f.sim.count('POST', CAMPAIGN)).toBe(41);
		expect(processedTexts(f)).toHaveLength(40);
		expect(new Set(processedTexts(f)).size).toBe(40);
		const answered429 = f.sim.timeline.findIndex((e) => e.event === '-' && e.status === 429);
		expect(answered429).toBeGreaterThan(0);
		// Requests already on their way when the 429 was answered finish; none starts during the
		// pause, so a moment comes when none is open; then 4 (8 halved) go out until answers come.
		const open = new Set<number>();
		let quiet = -1;
		f.sim.timeline.forEach((e, i) => {
			if (e.event === '+') open.add(e.seq);
			else open.delete(e.seq);
			if (i > answered429 && quiet < 0 && open.size === 0) quiet = i;
		});
		expect(quiet).toBeGreaterThan(answered429);
		const afterPause = f.sim.timeline.slice(quiet + 1);
		expect(peakOverlap(afterPause.slice(0, nthIndex(afterPause, '-', 0)), CAMPAIGN)).toBe(4);
		expect(jsonOf(result.items).flatMap((o) => o.warnings)).toContain(
			'The provider asked to slow down (HTTP 429): 1 request(s) were repeated after waiting',
		);
	});

	it('without Continue On Fail, the first failure stops new requests; those in flight finish and are counted', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 150 }, 2);
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 150 }, 60);
		const result = await f.run({ ...SEND, options: { parallelRequests: 4 } }, people(60));
		expect(result.error?.message).toMatch(/HTTP 503/);
		expect(f.sim.count('POST', CAMPAIGN)).toBeLessThan(60);
		const accepted = f.sim.campaigns.map((c) => c.body.recipientInfo[0].msisdn).sort();
		expect([...(result.error?.context?.acceptedRecipients as string[])].sort()).toEqual(accepted);
		expect(result.error?.description).toContain(
			`accepted ${accepted.length} recipient(s) of this run`,
		);
	});

	it('Retry On Fail under concurrency posts only what was not accepted, each body once', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 100 }, 5);
		f.sim.injectFault(CAMPAIGN, { kind: 'status', status: 503 });
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 100 }, 40);
		const result = await f.run(SEND, people(30), {
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 0,
		});
		expect(result.error).toBeUndefined();
		expect(processedTexts(f)).toHaveLength(30);
		expect(new Set(processedTexts(f)).size).toBe(30);
		expect(jsonOf(result.items).every((o) => o.recipients[0].status === 'accepted')).toBe(true);
	});

	it('a Parallel Requests value out of range is an error naming the option, before anything is sent', async () => {
		const f = fixture();
		const result = await f.run({ ...SEND, options: { parallelRequests: 0 } }, people(2));
		expect(result.error?.message).toBe(
			'Parallel Requests must be a whole number from 1 to 1000 (got 0) (item 0)',
		);
		expect(f.sim.count('POST', CAMPAIGN)).toBe(0);
	});
});
