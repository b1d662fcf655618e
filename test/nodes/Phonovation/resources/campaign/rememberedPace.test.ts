import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { TimelineEvent } from '../../../../simulator';
import { itemsOf, PERSONALISED_SEND, sharedFixture, type PhonovationFixture } from '../../fixture';

/**
 * The pace one execution found, remembered for the next execution of the same workflow on the
 * same account (in the n8n process's memory), counted in the simulator's events.
 */
const CAMPAIGN = '/api/v2/Campaign';
const SEND = PERSONALISED_SEND;
const CEILING = { ...SEND, options: { parallelRequests: 96 } };
const MINUTE = 60_000;

jest.setTimeout(90_000);

const people = (n: number, from = 0) =>
	itemsOf(n, (i) => ({ phone: `0879${String(from + i).padStart(6, '0')}`, name: `P${from + i}` }));
const campaignEvents = (f: PhonovationFixture): TimelineEvent[] =>
	f.sim.timeline.filter((e) => e.path.toLowerCase() === CAMPAIGN.toLowerCase());

/** Campaign requests that went out before the provider answered any: the run's starting window. */
function startingWindow(f: PhonovationFixture, fromEvent: number): number {
	const events = campaignEvents(f).slice(fromEvent);
	const firstAnswer = events.findIndex((e) => e.event === '-');
	return events.slice(0, firstAnswer).filter((e) => e.event === '+').length;
}

interface Counting {
	/**
	 * The most the run should start with: that many requests are answered after 700 ms, so a busy
	 * machine still sends its whole starting window before an answer; the rest after 100 ms, not
	 * slow enough to read as strain. Left out, the faults the test injected answer.
	 */
	startsAtMost?: number;
	items?: INodeExecutionData[];
	credential?: { id: string; name: string };
}

/** Runs the node and says how many requests it started with. */
async function runCounting(
	f: PhonovationFixture,
	parameters: INodeParameters,
	{ startsAtMost, items, credential }: Counting,
): Promise<number> {
	if (startsAtMost !== undefined) {
		f.sim.clearFaults();
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 700 }, startsAtMost);
		f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 100 }, 5000);
	}
	const before = campaignEvents(f).length;
	const node = credential ? { credentials: { phonovationApi: credential } } : {};
	const result = await f.run(parameters, items ?? people(120, 5000 + before), node);
	expect(result.error).toBeUndefined();
	return startingWindow(f, before);
}

/**
 * A first execution that climbs towards Parallel Requests 96. Its answers take 150 ms: only answers
 * slower than twice that read as strain, so a busy machine's pauses do not cut its window.
 */
async function firstRun(f: PhonovationFixture): Promise<void> {
	f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 500 }, 8);
	f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 150 }, 392);
	expect(await runCounting(f, CEILING, { items: people(400) })).toBe(8);
}

describe('Remembered pace: a second execution starts where the first left off', () => {
	const fixture = sharedFixture();
	afterEach(() => jest.useRealTimers());

	it('the second execution of a workflow starts with the window the first reached, not 8', async () => {
		const f = fixture();
		await firstRun(f);
		// Below 96 when answers slowed on a busy machine, well above 8 either way.
		const second = await runCounting(f, CEILING, { startsAtMost: 96 });
		expect(second).toBeGreaterThanOrEqual(32);
		expect(second).toBeLessThanOrEqual(96);
		// Each row of both runs processed once.
		expect(new Set(f.sim.campaigns.map((c) => c.body.text)).size).toBe(f.sim.campaigns.length);
		expect(f.sim.campaigns).toHaveLength(520);
	});

	it('the remembered window ages: half after 15 minutes, a quarter after 30, a first run after an hour', async () => {
		const f = fixture();
		await firstRun(f);
		// Each run starts at what the last one left (between its own start and the ceiling, 96), aged.
		const now = await runCounting(f, CEILING, { startsAtMost: 96 });
		// Only Date moves (n8n's and the node's clock); timers run as usual.
		jest.useFakeTimers({
			doNotFake: [
				'setTimeout',
				'setInterval',
				'setImmediate',
				'nextTick',
				'queueMicrotask',
				'clearTimeout',
				'clearInterval',
				'clearImmediate',
				'performance',
				'hrtime',
			],
		});
		const later = (minutes: number) => jest.setSystemTime(Date.now() + minutes * MINUTE);
		later(15);
		const after15 = await runCounting(f, CEILING, { startsAtMost: 48 });
		expect(after15).toBeGreaterThanOrEqual(Math.floor(now / 2) - 1);
		expect(after15).toBeLessThanOrEqual(96 / 2);
		later(30);
		const after30 = await runCounting(f, CEILING, { startsAtMost: 24 });
		expect(after30).toBeGreaterThanOrEqual(Math.max(8, Math.floor(after15 / 4) - 1));
		expect(after30).toBeLessThanOrEqual(96 / 4);
		later(61);
		expect(await runCounting(f, CEILING, { startsAtMost: 8 })).toBe(8);
	});

	it('another workflow on the same account starts as a first run', async () => {
		const f = fixture();
		await firstRun(f);
		f.engine.workflowId = 'another-workflow';
		expect(await runCounting(f, CEILING, { startsAtMost: 8 })).toBe(8);
	});

	it('another account in the same workflow keeps its own pace', async () => {
		const f = fixture();
		await firstRun(f);
		f.engine.credentials.set('cred-2', f.engine.credentials.stored('cred-1'));
		expect(
			await runCounting(f, CEILING, {
				startsAtMost: 8,
				credential: { id: 'cred-2', name: 'Other' },
			}),
		).toBe(8);
	});

	it('never starts above Parallel Requests, when a later run asks for fewer', async () => {
		const f = fixture();
		await firstRun(f);
		// The first run reaches past 20 on an idle machine; on a starved one its answers slow and it
		// may stop lower (13 was seen): the later run starts from that, never above its own 20.
		const second = await runCounting(
			f,
			{ ...SEND, options: { parallelRequests: 20 } },
			{ startsAtMost: 20 },
		);
		expect(second).toBeGreaterThan(8);
		expect(second).toBeLessThanOrEqual(20);
	});

	it('pinned (Adaptive off), Parallel Requests go out at once whatever was remembered', async () => {
		const f = fixture();
		await firstRun(f);
		const pinned = { ...SEND, options: { parallelRequests: 12, adaptiveParallelRequests: false } };
		expect(await runCounting(f, pinned, { startsAtMost: 12, items: people(36, 900) })).toBe(12);
	});

	it('a strict provider (one at a time): later runs start at the one or two it admitted, not 8', async () => {
		const f = fixture();
		f.sim.config.campaignLimit = { max: 1, retryAfter: 0 };
		try {
			f.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 20 }, 5000);
			await runCounting(f, SEND, { items: people(60) });
			expect(f.sim.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
			for (let run = 1; run <= 3; run++) {
				// The limit is what was in flight when refused: 1, or 2 when a second request was on its way.
				// (How many probes above it are refused later depends on answer times: a starved
				// machine's pauses make more, so that count is not checked here.)
				expect(await runCounting(f, SEND, { items: people(30, run * 100) })).toBeLessThanOrEqual(2);
			}
			expect(f.sim.campaigns).toHaveLength(150);
		} finally {
			f.sim.config.campaignLimit = undefined;
		}
	});
});
