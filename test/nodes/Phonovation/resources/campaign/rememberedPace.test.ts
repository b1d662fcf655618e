import { PACE_STATIC_KEY } from '../../../../../nodes/Phonovation/resources/campaign/pipeline/paceMemory';
import type { TimelineEvent } from '../../../../simulator';
import { itemsOf, sharedFixture, type PhonovationFixture } from '../../fixture';

/**
 * The pace one execution found, remembered for the next execution of the same workflow (its
 * static data, which n8n saves after a production run), counted in the simulator's events.
 */
const CAMPAIGN = '/api/v2/Campaign';
const SEND = {
	resource: 'campaign',
	operation: 'send',
	from: 'Phonovation',
	text: '=Hi {{ $json.name }}',
	recipients: '={{ $json.phone }}',
};
/** A production execution: started by a trigger, so n8n saves the workflow's static data after it. */
const TRIGGERED = { mode: 'trigger' as const };

jest.setTimeout(90_000);

const people = (n: number, from = 0) =>
	itemsOf(n, (i) => ({ phone: `0879${String(from + i).padStart(6, '0')}`, name: `P${from + i}` }));
const campaignEvents = (f: PhonovationFixture): TimelineEvent[] =>
	f.sim.timeline.filter((e) => e.path.toLowerCase() === CAMPAIGN.toLowerCase());

/** Campaign requests that went out before the provider answered any: the run's starting window. */
function startingWindow(f: PhonovationFixture, fromEvent = 0): number {
	const events = campaignEvents(f).slice(fromEvent);
	const firstAnswer = events.findIndex((e) => e.event === '-');
	return events.slice(0, firstAnswer).filter((e) => e.event === '+').length;
}

const refusals = (f: PhonovationFixture) => f.sim.requests.filter((r) => r.status === 429).length;

/** The remembered paces in the workflow's static data (one per account). */
function rememberedPaces(f: PhonovationFixture): Array<Record<string, number>> {
	const global = f.engine.staticData.global as Record<string, unknown>;
	return Object.values(global[PACE_STATIC_KEY] as Record<string, Record<string, number>>);
}

/** Sets every remembered pace to `window`, saved `minutes` ago, as if the workflow had not run since. */
function rememberWindow(f: PhonovationFixture, window: number, minutes: number): void {
	for (const pace of rememberedPaces(f)) {
		pace.window = window;
		// A few seconds short of it, so the run that reads it finds the age the test names.
		pace.at = Date.now() - minutes * 60_000 + 5_000;
	}
}

describe('Remembered pace: a second execution starts where the first left off', () => {
	const fixture = sharedFixture();

	/** A first execution that climbs to Parallel Requests 96 against a provider taking 40 ms. */
	async function firstRun(f: PhonovationFixture): Promise<void> {
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 40 }, 400);
		const result = await f.run(
			{ ...SEND, options: { parallelRequests: 96 } },
			people(400),
			{},
			TRIGGERED,
		);
		expect(result.error).toBeUndefined();
		expect(startingWindow(f)).toBe(8);
		// Answers the next run's first requests slowly enough that all of its window is out first.
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 200 }, 2000);
	}

	it('a second triggered execution starts with the window the first reached, not 8', async () => {
		const f = fixture();
		await firstRun(f);
		const [{ window: firstEnded }] = rememberedPaces(f);
		const before = campaignEvents(f).length;
		const second = await f.run(
			{ ...SEND, options: { parallelRequests: 96 } },
			people(200, 400),
			{},
			TRIGGERED,
		);
		expect(second.error).toBeUndefined();
		// Where the first run ended (below 96 when answers slowed on a busy machine), well above 8;
		// aged by the moment between the runs, which may take it just under a whole number.
		expect(startingWindow(f, before)).toBeLessThanOrEqual(Math.floor(firstEnded));
		expect(startingWindow(f, before)).toBeGreaterThanOrEqual(Math.floor(firstEnded) - 1);
		expect(startingWindow(f, before)).toBeGreaterThanOrEqual(32);
		// Each row of both runs processed once.
		expect(new Set(f.sim.campaigns.map((c) => c.body.text)).size).toBe(600);
		expect(f.sim.campaigns).toHaveLength(600);
	});

	it('the remembered window ages: half after 15 minutes, a quarter after 30, as a first run after an hour', async () => {
		const f = fixture();
		await firstRun(f);
		const saved = JSON.stringify(f.engine.staticData);
		const startAfter = async (minutes: number) => {
			f.engine.staticData = JSON.parse(saved);
			rememberWindow(f, 96, minutes);
			const before = campaignEvents(f).length;
			const run = await f.run(
				{ ...SEND, options: { parallelRequests: 96 } },
				people(120, 1000 + minutes),
				{},
				TRIGGERED,
			);
			expect(run.error).toBeUndefined();
			return startingWindow(f, before);
		};
		expect(await startAfter(15)).toBe(48);
		expect(await startAfter(30)).toBe(24);
		expect(await startAfter(61)).toBe(8);
	});

	it('a manual execution in the editor neither keeps nor uses it (n8n saves no static data for one)', async () => {
		const f = fixture();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 40 }, 2000);
		await f.run({ ...SEND, options: { parallelRequests: 96 } }, people(400));
		expect(f.engine.staticData).toEqual({});
		const before = campaignEvents(f).length;
		await f.run({ ...SEND, options: { parallelRequests: 96 } }, people(100, 400));
		expect(startingWindow(f, before)).toBe(8);
	});

	it('never starts above Parallel Requests, when a later run asks for fewer', async () => {
		const f = fixture();
		await firstRun(f);
		const before = campaignEvents(f).length;
		await f.run({ ...SEND, options: { parallelRequests: 20 } }, people(100, 400), {}, TRIGGERED);
		expect(startingWindow(f, before)).toBe(20);
	});

	it('static data that is not a pace (edited by hand, another version) is a first run', async () => {
		const f = fixture();
		f.engine.staticData = { global: { [PACE_STATIC_KEY]: { any: { window: 'many', at: -1 } } } };
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 40 }, 2000);
		const result = await f.run(
			{ ...SEND, options: { parallelRequests: 96 } },
			people(100),
			{},
			TRIGGERED,
		);
		expect(result.error).toBeUndefined();
		expect(startingWindow(f)).toBe(8);
	});

	it('a strict provider (one at a time) is never overwhelmed by a remembered pace: the second run starts at one, refused less', async () => {
		const f = fixture();
		f.sim.config.campaignLimit = { max: 1, retryAfter: 0 };
		try {
			f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 20 }, 2000);
			const first = await f.run(SEND, people(60), {}, TRIGGERED);
			expect(first.error).toBeUndefined();
			const refusedFirst = refusals(f);
			expect(refusedFirst).toBeGreaterThan(0);
			const before = campaignEvents(f).length;
			const second = await f.run(SEND, people(60, 60), {}, TRIGGERED);
			expect(second.error).toBeUndefined();
			const arrivals = campaignEvents(f).slice(before);
			// The first request goes out alone, and the second run is refused less than the first.
			expect(startingWindow(f, before)).toBe(1);
			expect(refusals(f) - refusedFirst).toBeLessThan(refusedFirst);
			expect(arrivals.filter((e) => e.event === '+').length).toBeGreaterThanOrEqual(60);
			expect(f.sim.campaigns).toHaveLength(120);
		} finally {
			f.sim.config.campaignLimit = undefined;
		}
	});

	it('two accounts in one workflow keep their own pace', async () => {
		const f = fixture();
		await firstRun(f);
		f.engine.credentials.set('cred-2', f.engine.credentials.stored('cred-1'));
		const before = campaignEvents(f).length;
		await f.run(
			{ ...SEND, options: { parallelRequests: 96 } },
			people(100, 400),
			{ credentials: { phonovationApi: { id: 'cred-2', name: 'Other account' } } },
			TRIGGERED,
		);
		expect(startingWindow(f, before)).toBe(8);
	});
});
