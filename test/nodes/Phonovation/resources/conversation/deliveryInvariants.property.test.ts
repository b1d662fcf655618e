import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { sharedFixture } from '../../fixture';
import {
	deliveryProperty,
	type DeliveryObservation,
	type DeliveryRun,
	type DeliveryWorld,
	describeRun,
	execute,
	type GeneratedQuestion,
	labelOf,
	startDeliveryWorld,
	violationsOf,
} from './deliveryInvariants';

/**
 * Deliver Reply and Deliver Receipt's promises over 150 generated runs (see deliveryInvariants.ts),
 * with a fixed seed so that `npm test` is repeatable; `npm run fuzz` runs the same property with a
 * random seed and 5,000 runs.
 */
const SEED = 29;
const RUNS = 150;

jest.setTimeout(5 * 60_000);

/** A question asked before the first delivery, its resume URL answering for itself. */
const asked = (change: Partial<GeneratedQuestion> = {}): GeneratedQuestion => ({
	waitsFor: 'reply',
	retried: false,
	askedMinutesAgo: 30,
	expires: 'later',
	answerCode: false,
	responseType: 'approval',
	appearsBefore: 0,
	answers: [],
	genuineForm: 'asRecorded',
	...change,
});

const yes = { from: 'asked', word: 'YES', code: null, codeFirst: false } as const;
const reply = (change: Partial<Extract<DeliveryRun['deliveries'][number], { kind: 'reply' }>>) =>
	({ kind: 'reply', relay: 0, stamp: 'now', link: null, verified: true, ...change }) as const;

/** Scenarios written by hand: each must keep every promise (and is a seed for shrinking). */
const SCENARIOS: Array<[string, DeliveryRun]> = [
	[
		'a forged row copying the linked question, then the answer replayed with a fresh time stamp to a later question with its code',
		{
			questions: [asked(), asked({ answerCode: true, appearsBefore: 1, askedMinutesAgo: 0 })],
			forgeries: [{ of: 0, mutation: 'dot-segment to a production webhook', first: true }],
			relays: [yes],
			deliveries: [reply({ link: 0 }), reply({ stamp: 'now' })],
		},
	],
	[
		'a run that took the reply behind a 502: unconfirmed, never offered to the older question',
		{
			questions: [
				asked({ askedMinutesAgo: 60 }),
				asked({ askedMinutesAgo: 5, answers: [{ fault: '502 page', takes: true }] }),
			],
			forgeries: [],
			relays: [yes],
			deliveries: [reply({})],
		},
	],
	[
		'a receipt whose resume URL times out, then answers; its sealed row forged for another execution',
		{
			questions: [asked({ waitsFor: 'receipt', answers: [{ fault: 'timeout', takes: false }] })],
			forgeries: [{ of: 0, mutation: 'sealed for another execution', first: true }],
			relays: [yes],
			deliveries: [
				{
					kind: 'receipt',
					of: 0,
					ofAQuestion: false,
					source: 'deliveryReceipt',
					delivered: true,
					verified: true,
				},
			],
		},
	],
	[
		'a reply stamped beyond the clock skew before its question, after a Retry of the execution',
		{
			questions: [asked({ retried: true })],
			forgeries: [{ of: 0, mutation: 'a retry binding for another node', first: false }],
			relays: [yes],
			deliveries: [reply({ stamp: { before: 0, by: 'beyondSkew' } }), reply({})],
		},
	],
];

describe('Deliver Reply and Deliver Receipt over generated runs', () => {
	const fixture = sharedFixture();
	let world: DeliveryWorld;
	beforeAll(async () => {
		world = await startDeliveryWorld(fixture());
	});
	afterAll(async () => await world.stop());

	it(`${RUNS} runs: no post to a forged row, a relay answers at most one question and never an older-stamped one, unknown outcomes stay unconfirmed`, async () => {
		/** What the runs exercised: the property must not pass for want of anything happening. */
		const seen = new Map<string, number>();
		const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
		await fc.assert(
			deliveryProperty(() => world, {
				observe: (_run, observed) => {
					for (const { output, generated } of observed.deliveries) {
						if (output?.resumed === true) count(`${generated.kind} resumed`);
						if (output?.unconfirmed === true) count(`${generated.kind} unconfirmed`);
						if (Array.isArray(output?.unusableRows)) count(`${generated.kind} unusable rows`);
						const reason = String(output?.reason ?? '');
						if (/sent before the question/.test(reason)) count('older than its question');
						if (/carry the question's code/.test(reason)) count('without the code');
						if (/any more/.test(reason)) count('replay after the answer');
						if (output?.alreadyAnswered === true) count('the same relay again');
					}
					for (const { answered } of observed.posts) if (answered !== 'node') count(answered);
				},
			}),
			{ seed: SEED, numRuns: RUNS },
		);
		expect(Object.fromEntries(seen)).toMatchObject(
			Object.fromEntries(
				[
					'reply resumed',
					'receipt resumed',
					'reply unconfirmed',
					'receipt unconfirmed',
					'reply unusable rows',
					'receipt unusable rows',
					'older than its question',
					'without the code',
					'replay after the answer',
					'the same relay again',
					'timeout',
					'reset',
					'502 page',
					'307 elsewhere',
					'200 not ours',
					'409 running',
				].map((what) => [what, expect.any(Number)]),
			),
		);
	});

	it.each(SCENARIOS)('%s', async (_name, run) => {
		const observed = await execute(world, run);
		const problems = violationsOf(run, observed);
		if (problems.length > 0)
			throw new Error(`${problems.join('\n')}\nRun:\n${describeRun(run, observed)}`);
	});

	describe('the oracle flags each broken promise (what was seen, altered by hand)', () => {
		const [, forged] = SCENARIOS[0];
		const [, behindA502] = SCENARIOS[1];
		let first: DeliveryObservation;
		let second: DeliveryObservation;
		beforeAll(async () => {
			first = await execute(world, forged);
			second = await execute(world, behindA502);
		});
		const altered = (seen: DeliveryObservation) => structuredClone(seen);
		const output = (seen: DeliveryObservation, d = 0) => seen.deliveries[d].output as IDataObject;
		const labels = (run: DeliveryRun, seen: DeliveryObservation) =>
			[...new Set(violationsOf(run, seen).map(labelOf))].sort();

		it('as seen, nothing', () => {
			expect(labels(forged, first)).toEqual([]);
			expect(labels(behindA502, second)).toEqual([]);
			expect(output(first)).toMatchObject({ resumed: true, unusableRows: [expect.anything()] });
			expect(output(second)).toMatchObject({ resumed: false, unconfirmed: true });
		});

		it.each<[string, string[], (seen: DeliveryObservation) => void]>([
			[
				'a post to the forged row',
				['1'],
				(seen) =>
					seen.requests.push({
						delivery: 0,
						url: seen.rows.find((r) => r.mutation !== undefined)!.resumeUrl,
					}),
			],
			[
				'a redirect followed',
				['1r'],
				(seen) => seen.requests.push({ delivery: 0, url: `${seen.elsewhere}/collect` }),
			],
			['the forged row not listed', ['1u'], (seen) => delete output(seen).unusableRows],
			[
				'a reply older than its question taking it',
				['2age'],
				(seen) => {
					(seen.deliveries[0].item.unverified as IDataObject).receivedAt = new Date(
						Date.parse(seen.asked[0].askedAt!) - 60_000,
					).toISOString();
				},
			],
			[
				'a reply without the code taking it',
				['2code'],
				(seen) => (seen.asked[0].answerCode = true),
			],
			[
				'the answer also settling the later question, whose code it does not carry',
				['2code', '2once'],
				(seen) => (seen.asked[1].resumedBy = { delivery: 0, body: {} }),
			],
			[
				'a resumed run reported not resumed',
				['L', 'R'],
				(seen) => Object.assign(output(seen), { resumed: false, reason: 'lost' }),
			],
		])('%s', (_case, expected, alter) => {
			const seen = altered(first);
			alter(seen);
			expect(labels(forged, seen)).toEqual(expected);
		});

		it.each<[string, (seen: DeliveryObservation) => void]>([
			[
				'offered to the older question after the 502',
				(seen) =>
					seen.posts.push({ ...seen.posts[0], question: 0, answered: 'node', tookIt: false }),
			],
			['the item not saying unconfirmed', (seen) => delete output(seen).unconfirmed],
		])('an unknown outcome: %s', (_case, alter) => {
			const seen = altered(second);
			alter(seen);
			expect(labels(behindA502, seen)).toContain('3');
		});
	});
});
