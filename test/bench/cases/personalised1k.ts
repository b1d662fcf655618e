import type { INodeExecutionData } from 'n8n-workflow';

import { withBuiltInsBench } from '../support/benchEngine';
import type { CaseResult } from '../support/report';
import type { SimulatorProcess } from '../support/simulatorProcess';
import { alternate, median, round, timed } from '../support/stats';
import { runWorkflow } from '../support/workflowRunner';
import { personalisedSends } from './handBuiltWorkflows';

export interface Personalised1kOptions {
	/** The case's name in the output (`personalised-300` runs it with 300 items). */
	name?: string;
	items?: number;
	/** Provider latency added to every campaign request. */
	latencyMs?: number;
	rounds?: number;
	/** Parallel Requests pinned (Adaptive off) for the "ours pinned at N" reference figure. */
	pinned?: number;
	log?: (line: string) => void;
	/** What the contenders post to (a simulator over TLS for `personalised-1k-tls`). */
	simulator?: () => Promise<SimulatorProcess>;
}

export const CAMPAIGN = '/api/v2/Campaign';
/** Each row's own text, as an n8n expression body (without `{{ }}`). */
export const TEXT = "'Hi ' + $json.name + ', your appointment is at ' + $json.time";

/** Appointment rows: a phone in national form, the same number as msisdn, a name and a time. */
export function rows(count: number): INodeExecutionData[] {
	return Array.from({ length: count }, (_, i) => ({
		json: {
			phone: `0875${String(i).padStart(6, '0')}`,
			msisdn: `353875${String(i).padStart(6, '0')}`,
			name: `Person ${i}`,
			time: `${9 + (i % 8)}:00`,
		},
	}));
}

/** Ours / hand-built: a first run (cold) and a run after one (warm), by run size. */
const TARGETS: Record<number, { cold: number; warm: number }> = {
	1_000: { cold: 1.3, warm: 1.1 },
	300: { cold: 1.5, warm: 1.2 },
};

/** Bodies the provider processed more than once: what a customer would pay for twice. */
async function doubleSends(sim: SimulatorProcess): Promise<number> {
	const bodies = (await sim.campaigns()).map((c) => JSON.stringify(c.body));
	return bodies.length - new Set(bodies).size;
}

/** Every row's own text arrived, each once. */
async function allDelivered(sim: SimulatorProcess, count: number): Promise<boolean> {
	const texts = new Set((await sim.campaigns()).map((c) => c.body.text as string));
	return texts.size === count;
}

/** A fresh simulator state whose campaign requests each take `latencyMs`, plus optional 429s. */
async function provider(
	sim: SimulatorProcess,
	count: number,
	latencyMs: number,
	tooManyEvery = 0,
): Promise<void> {
	await sim.reset();
	if (tooManyEvery === 0)
		return void (await sim.injectFault(CAMPAIGN, { kind: 'delay', ms: latencyMs }, count * 2));
	for (let posted = 0; posted < count * 2; posted += tooManyEvery) {
		await sim.injectFault(CAMPAIGN, { kind: 'delay', ms: latencyMs }, tooManyEvery - 1);
		await sim.injectFault(CAMPAIGN, { kind: 'status', status: 429, retryAfter: 1 });
	}
}

/**
 * 1,000 items with their own text → 1,000 campaigns against a provider taking 50 ms each: ours at
 * its defaults (adaptive, ceiling 256) against a hand-built workflow (token by HTTP Request, then
 * one HTTP Request node posting per item, n8n's defaults), alternating rounds in one engine; ours
 * pinned at one at a time and at 32 for reference; then ours again with a 429 on every 50th request.
 *
 * Ours runs as a triggered (production) execution twice a round: cold, with the workflow's static
 * data cleared (a first run: the pace climbs from 8), and warm, after an earlier run saved the pace
 * it found (what a scheduled or webhook-started workflow sees from its second run on).
 */
export async function personalised1k(options: Personalised1kOptions = {}): Promise<CaseResult> {
	const name = options.name ?? 'personalised-1k';
	const items = options.items ?? 1_000;
	const latencyMs = options.latencyMs ?? 50;
	const rounds = options.rounds ?? 3;
	const pinned = options.pinned ?? 32;
	const log = options.log ?? (() => {});
	return await withBuiltInsBench(log, options.simulator, async ({ sim, bench, access }) => {
		const oursWith = (parallelRequests?: number) =>
			bench.phonovationNode({
				resource: 'campaign',
				operation: 'send',
				from: 'Phonovation',
				text: `={{ ${TEXT} }}`,
				recipients: '={{ $json.phone }}',
				options: parallelRequests ? { parallelRequests, adaptiveParallelRequests: false } : {},
			});
		const handBuilt = personalisedSends(access, {
			from: 'Phonovation',
			text: '',
			textExpression: TEXT,
		});
		const ours =
			(parallelRequests?: number, pace: 'cold' | 'warm' = 'cold') =>
			async () => {
				bench.forgetToken();
				if (pace === 'cold') bench.engine.workflowId = `bench-${Date.now()}-${Math.random()}`;
				const run = await bench.engine.runNode(oursWith(parallelRequests), rows(items), 'trigger');
				if (run.error) throw new Error(`Our node failed: ${run.error.message}`);
			};
		const theirs = async () =>
			void (await runWorkflow(
				bench.engine,
				handBuilt.nodes,
				handBuilt.connections,
				handBuilt.start,
				rows(items),
			));
		const measure = async (name: string, work: () => Promise<void>, tooManyEvery = 0) => {
			await provider(sim, items, latencyMs, tooManyEvery);
			const { ms } = await timed(work);
			const delivered = await allDelivered(sim, items);
			const doubles = await doubleSends(sim);
			const { opened, reused } = await sim.connections();
			const newConnections = opened / Math.max(1, opened + reused);
			log(
				`${name}: ${Math.round(ms)} ms, all delivered: ${delivered}, double sends: ${doubles}, new connections per request: ${round(newConnections, 2)}`,
			);
			return { ms, delivered, doubles, newConnections };
		};

		// Unmeasured warm-up, so neither side pays for compiling n8n's shared code paths.
		await provider(sim, items, 0);
		await ours()();
		await provider(sim, items, 0);
		await theirs();

		// A warm run follows a run of ours: the first round's warm run needs one before it.
		await provider(sim, items, latencyMs);
		await ours()();
		const results = await alternate(rounds, {
			ours: () => measure('ours, cold', ours()),
			oursWarm: () => measure('ours, warm', ours(undefined, 'warm')),
			handBuilt: () => measure('hand-built', theirs),
		});
		const atPinned = await measure(`ours pinned at ${pinned}`, ours(pinned));
		const sequential = await measure('ours one at a time', ours(1));
		const paced = await measure('ours with a 429 every 50th request', ours(), 50);

		const oursMs = median(results.ours.map((r) => r.ms));
		const warmMs = median(results.oursWarm.map((r) => r.ms));
		const handBuiltMs = median(results.handBuilt.map((r) => r.ms));
		const ratio = round(oursMs / handBuiltMs, 2);
		const warmRatio = round(warmMs / handBuiltMs, 2);
		const sequentialRatio = round(oursMs / sequential.ms, 3);
		const ourRuns = [...results.ours, ...results.oursWarm];
		const doubles = Math.max(...ourRuns.map((r) => r.doubles));
		const everyDelivered = ourRuns.every((r) => r.delivered) && paced.delivered;
		const targets = TARGETS[items] ?? TARGETS[1_000];
		return {
			line: {
				name,
				items,
				latencyMs,
				oursMs: Math.round(oursMs),
				warmMs: Math.round(warmMs),
				handBuiltMs: Math.round(handBuiltMs),
				ratio,
				warmRatio,
				sequentialRatio,
				doubleSends: doubles,
				newConnectionsPerRequest: round(median(ourRuns.map((r) => r.newConnections)), 2),
				handBuiltNewConnectionsPerRequest: round(
					median(results.handBuilt.map((r) => r.newConnections)),
					2,
				),
				[`ratioPinnedAt${pinned}`]: round(atPinned.ms / handBuiltMs, 2),
				sequentialMs: Math.round(sequential.ms),
				pacedMs: Math.round(paced.ms),
				pacedDoubleSends: paced.doubles,
				pacedAllDelivered: paced.delivered ? 1 : 0,
			},
			summary: `${items} personalised items at ${latencyMs} ms each: ours ${Math.round(oursMs)} ms cold, ${Math.round(warmMs)} ms warm vs hand-built ${Math.round(handBuiltMs)} ms; one at a time ${Math.round(sequential.ms)} ms`,
			target: `ratio ≤ ${targets.cold} cold, warmRatio ≤ ${targets.warm}, sequentialRatio ≤ 0.2, doubleSends 0 (also with a 429 every 50th request)`,
			met:
				ratio <= targets.cold &&
				warmRatio <= targets.warm &&
				sequentialRatio <= 0.2 &&
				doubles === 0 &&
				paced.doubles === 0 &&
				everyDelivered,
			notes: [
				`per round: ours cold ${results.ours.map((r) => Math.round(r.ms)).join(' / ')} ms, warm ${results.oursWarm.map((r) => Math.round(r.ms)).join(' / ')} ms, hand-built ${results.handBuilt.map((r) => Math.round(r.ms)).join(' / ')} ms`,
				`ours with Parallel Requests pinned at ${pinned} (the old fixed default): ${Math.round(atPinned.ms)} ms`,
				`with a 429 (Retry-After: 1) on every 50th request: ${Math.round(paced.ms)} ms, all delivered: ${paced.delivered}, double sends: ${paced.doubles}`,
			],
		};
	});
}
