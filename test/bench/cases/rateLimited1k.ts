import { withBuiltInsBench } from '../support/benchEngine';
import { postAtTheLimit } from '../support/clientAtTheLimit';
import type { CaseResult } from '../support/report';
import type { SimulatorProcess } from '../support/simulatorProcess';
import { alternate, median, round, timed } from '../support/stats';
import { runWorkflow } from '../support/workflowRunner';
import { personalisedSends } from './handBuiltWorkflows';
import { CAMPAIGN, rows, TEXT } from './personalised1k';

export interface RateLimited1kOptions {
	items?: number;
	/** Campaign requests the provider admits at once. */
	limit?: number;
	latencyMs?: number;
	/** Retry-After on the provider's 429s, in seconds. */
	retryAfter?: number;
	rounds?: number;
	log?: (line: string) => void;
}

interface Outcome {
	ms: number;
	/** Rows whose text the provider processed exactly once. */
	deliveredOnce: number;
	/** Bodies processed more than once. */
	doubles: number;
	refused: number;
	/** Items the workflow reported as failed. */
	failedItems: number;
}

async function outcome(sim: SimulatorProcess, ms: number, failedItems: number): Promise<Outcome> {
	const texts = (await sim.campaigns()).map((c) => c.body.text as string);
	const counts = new Map<string, number>();
	for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
	const refused = (await sim.requests()).filter((r) => r.status === 429).length;
	return {
		ms,
		deliveredOnce: [...counts.values()].filter((n) => n === 1).length,
		doubles: texts.length - counts.size,
		refused,
		failedItems,
	};
}

/**
 * A provider with a limit: it admits 20 campaign requests at once and answers 429 above that,
 * each admitted request taking 50 ms. 1,000 personalised items: ours at its defaults (adaptive,
 * ceiling 256) against the ideal, measured side by side: a client that knows the limit and keeps
 * it full from the first request to the last, never refused (clientAtTheLimit.ts). The formula
 * (1,000 / 20 × 50 ms = 2.5 s) is reported too; it counts the provider's and the loopback's own
 * time per request as zero, which no client on this machine reaches. Beside them the hand-built
 * workflow (one HTTP Request node posting each item, n8n's
 * defaults, On Error: continue), whose refused items are counted, and the same workflow with the
 * HTTP Request node's Batching at the limit, a pause of twice the provider's time between batches
 * (what a user who knows the limit builds).
 *
 * The 429s carry `Retry-After: 0` (come back when a request of yours has finished, as a
 * concurrency limit means), and the pacer waits that out for everyone. A Retry-After of 1 s is run
 * once more for reference: any client that has to find the limit by exceeding it pays at least
 * one such pause, so its floor is (2.5 + 1) / 2.5 = 1.4 of the ideal.
 */
export async function rateLimited1k(options: RateLimited1kOptions = {}): Promise<CaseResult> {
	const items = options.items ?? 1_000;
	const limit = options.limit ?? 20;
	const latencyMs = options.latencyMs ?? 50;
	const retryAfter = options.retryAfter ?? 0;
	const rounds = options.rounds ?? 3;
	const log = options.log ?? (() => {});
	const formulaMs = (items / limit) * latencyMs;
	return await withBuiltInsBench(log, undefined, async ({ sim, bench, access }) => {
		const oursNode = bench.phonovationNode({
			resource: 'campaign',
			operation: 'send',
			from: 'Phonovation',
			text: `={{ ${TEXT} }}`,
			recipients: '={{ $json.phone }}',
			options: {},
		});
		const message = { from: 'Phonovation', text: '', textExpression: TEXT };
		const handBuilt = personalisedSends(access, message, { onError: 'continueRegularOutput' });
		// What a careful user builds for a known limit: HTTP Request's Batching, `limit` items, then a
		// pause of twice the provider's time (n8n's Batching pauses between batches, it does not wait
		// for their answers).
		const batched = personalisedSends(access, message, {
			onError: 'continueRegularOutput',
			batching: { size: limit, intervalMs: 2 * latencyMs },
		});
		const provider = async (retryAfterSeconds: number) => {
			await sim.reset();
			await sim.setCampaignLimit({ max: limit, retryAfter: retryAfterSeconds });
			await sim.injectFault(CAMPAIGN, { kind: 'delay', ms: latencyMs }, items * 3);
		};
		const ours = async (
			retryAfterSeconds: number,
			name: string,
			pace: 'cold' | 'warm' = 'cold',
		) => {
			await provider(retryAfterSeconds);
			bench.forgetToken();
			if (pace === 'cold') bench.engine.workflowId = `bench-${Date.now()}-${Math.random()}`;
			const { value: run, ms } = await timed(
				async () => await bench.engine.runNode(oursNode, rows(items), 'trigger'),
			);
			if (run.error) throw new Error(`Our node failed: ${run.error.message}`);
			const result = await outcome(sim, ms, 0);
			log(
				`${name}: ${Math.round(ms)} ms, delivered once ${result.deliveredOnce}, refused ${result.refused}, double sends ${result.doubles}`,
			);
			return result;
		};
		const atTheLimit = async () => {
			await provider(retryAfter);
			const bodies = rows(items).map(({ json }) => ({
				from: 'Phonovation',
				text: `Hi ${json.name}, your appointment is at ${json.time}`,
				recipientInfo: [{ msisdn: json.msisdn }],
			}));
			const { value: posted, ms } = await timed(
				async () => await postAtTheLimit(access, bodies, limit),
			);
			if (posted.refused + posted.failed > 0)
				throw new Error(
					`The client at the limit was refused ${posted.refused}, failed ${posted.failed}`,
				);
			log(`ideal (a client at the limit): ${Math.round(ms)} ms`);
			return await outcome(sim, ms, 0);
		};
		const theirs = (workflow: typeof handBuilt, name: string) => async () => {
			await provider(retryAfter);
			const { value: run, ms } = await timed(
				async () =>
					await runWorkflow(
						bench.engine,
						workflow.nodes,
						workflow.connections,
						workflow.start,
						rows(items),
					),
			);
			const failed = run
				.outputOf('Send campaign')
				.filter((item) => item.json.error !== undefined).length;
			const result = await outcome(sim, ms, failed);
			log(
				`${name}: ${Math.round(ms)} ms, delivered once ${result.deliveredOnce}, failed items ${failed}`,
			);
			return result;
		};

		try {
			// Unmeasured warm-up without the limit, so neither side pays for compiling shared code.
			await sim.reset();
			await bench.engine.runNode(oursNode, rows(100));
			await sim.reset();
			await runWorkflow(
				bench.engine,
				handBuilt.nodes,
				handBuilt.connections,
				handBuilt.start,
				rows(100),
			);

			// A warm run follows a run of ours against the same provider (the pace it saved).
			await ours(retryAfter, 'ours, before the first warm run');
			const results = await alternate(rounds, {
				ours: () => ours(retryAfter, 'ours, cold'),
				oursWarm: () => ours(retryAfter, 'ours, warm', 'warm'),
				ideal: atTheLimit,
				handBuilt: theirs(handBuilt, 'hand-built'),
				batched: theirs(batched, `hand-built, batches of ${limit} every ${2 * latencyMs} ms`),
			});
			const slowRetry = await ours(1, 'ours, Retry-After: 1');

			const oursMs = median(results.ours.map((r) => r.ms));
			const warmMs = median(results.oursWarm.map((r) => r.ms));
			const idealMs = median(results.ideal.map((r) => r.ms));
			const idealRatio = round(oursMs / idealMs, 2);
			const warmIdealRatio = round(warmMs / idealMs, 2);
			const ourRuns = [...results.ours, ...results.oursWarm];
			const allOnce = ourRuns.every((r) => r.deliveredOnce === items && r.doubles === 0);
			const refusedCold = median(results.ours.map((r) => r.refused));
			const refusedWarm = median(results.oursWarm.map((r) => r.refused));
			const handBuiltFailed = Math.max(...results.handBuilt.map((r) => r.failedItems));
			return {
				line: {
					name: 'rate-limited-1k',
					items,
					limit,
					latencyMs,
					retryAfter,
					idealMs: Math.round(idealMs),
					formulaMs,
					formulaRatio: round(oursMs / formulaMs, 2),
					warmFormulaRatio: round(warmMs / formulaMs, 2),
					oursMs: Math.round(oursMs),
					warmMs: Math.round(warmMs),
					idealRatio,
					warmIdealRatio,
					deliveredOnce: Math.min(...ourRuns.map((r) => r.deliveredOnce)),
					doubleSends: Math.max(...ourRuns.map((r) => r.doubles)),
					refused: refusedCold,
					warmRefused: refusedWarm,
					handBuiltMs: Math.round(median(results.handBuilt.map((r) => r.ms))),
					handBuiltFailedItems: handBuiltFailed,
					handBuiltDeliveredOnce: Math.min(...results.handBuilt.map((r) => r.deliveredOnce)),
					batchedHandBuiltMs: Math.round(median(results.batched.map((r) => r.ms))),
					batchedHandBuiltFailedItems: Math.max(...results.batched.map((r) => r.failedItems)),
					batchedRatio: round(oursMs / median(results.batched.map((r) => r.ms)), 2),
					retryAfter1Ms: Math.round(slowRetry.ms),
					retryAfter1IdealRatio: round(slowRetry.ms / idealMs, 2),
					retryAfter1FormulaRatio: round(slowRetry.ms / formulaMs, 2),
					retryAfter1DeliveredOnce: slowRetry.deliveredOnce,
				},
				summary: `${items} personalised items, provider admitting ${limit} at once at ${latencyMs} ms: ours ${Math.round(oursMs)} ms cold, ${Math.round(warmMs)} ms warm vs ideal ${Math.round(idealMs)} ms (a client at the limit; formula ${formulaMs} ms); hand-built lost ${handBuiltFailed} items to 429`,
				target:
					'every text delivered once, idealRatio ≤ 1.3 cold, warmIdealRatio ≤ 1.15, warm refused ≤ cold, hand-built failures reported',
				met:
					allOnce &&
					idealRatio <= 1.3 &&
					warmIdealRatio <= 1.15 &&
					refusedWarm <= refusedCold &&
					slowRetry.deliveredOnce === items,
				notes: [
					`per round: ideal (a client at the limit) ${results.ideal.map((r) => Math.round(r.ms)).join(' / ')} ms, ours cold ${results.ours.map((r) => Math.round(r.ms)).join(' / ')} ms (refused ${results.ours.map((r) => r.refused).join(' / ')}), warm ${results.oursWarm.map((r) => Math.round(r.ms)).join(' / ')} ms (refused ${results.oursWarm.map((r) => r.refused).join(' / ')}), hand-built ${results.handBuilt.map((r) => Math.round(r.ms)).join(' / ')} ms, hand-built in batches of ${limit} every ${2 * latencyMs} ms ${results.batched.map((r) => Math.round(r.ms)).join(' / ')} ms (failed items ${results.batched.map((r) => r.failedItems).join(' / ')})`,
					`with Retry-After: 1 ours took ${Math.round(slowRetry.ms)} ms (${round(slowRetry.ms / formulaMs, 2)}× the formula; floor for any client that must find the limit: 1.4), refused ${slowRetry.refused}, all delivered once: ${slowRetry.deliveredOnce === items}`,
				],
			};
		} finally {
			await sim.setCampaignLimit(null);
		}
	});
}
