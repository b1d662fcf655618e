import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';

import { type E2eEnvironment, startE2eEnvironment } from '../../e2e/support/environment';
import { countExecutions, EVERY_STATUS } from '../../e2e/support/load-executions';
import { chain, phonovationTrigger } from '../../e2e/support/workflow-builder';
import type { ExpressionEngine } from '../support/expressionEngine';
import { postConcurrently } from '../support/load';
import type { CaseResult } from '../support/report';
import { alternate, median, round } from '../support/stats';
import {
	longestGap,
	longestGapDuring,
	pollDuring,
	type PollResult,
	stallRatio,
} from '../support/stalls';

export interface HostileBodyOptions {
	rounds?: number;
	/** How long each phase polls at least (one that sends bodies also until its last burst is answered). */
	windowMs?: number;
	/** Bodies sent at once. */
	burst?: number;
	/** Bursts per hostile phase (alternating its two kinds of body) and per control phase. */
	burstsPerRound?: number;
	expressionEngine?: ExpressionEngine;
	log?: (line: string) => void;
}

const FORM = 'application/x-www-form-urlencoded';

/** The trigger's body limit; every hostile body is at most this long, so none is refused for size. */
export const BODY_LIMIT = 64 * 1024;

/**
 * Rest gaps below this are raised to it before dividing. A gap is a whole HTTP round trip
 * through n8n's Express stack, which on loopback is itself about a millisecond, so a smaller
 * figure would be timer resolution, not a baseline, and would turn a harmless millisecond under
 * attack into a large ratio. The longest rest gap of a 5 s window measured 7–74 ms on a 2-core
 * machine, so the floor only guards against a degenerate run (a handful of polls).
 */
export const REST_FLOOR_MS = 1;

/** `a&a&a&…`: one field name repeated 32,768 times, 65,535 bytes. */
export function repeatedNameBody(limit = BODY_LIMIT): string {
	return Array.from({ length: Math.floor((limit + 1) / 2) }, () => 'a').join('&');
}

/** A reply whose text is punctuation with one letter at its end, and a made-up signature: exactly `limit` bytes. */
export function punctuationBody(limit = BODY_LIMIT): string {
	const head = 'SMS-From=353871234567&SMS-Content=';
	const tail = `a&SMS-Verify=${randomBytes(16).toString('hex')}`;
	return head + '!'.repeat(limit - head.length - tail.length) + tail;
}

/** An ordinary short reply with a made-up signature: refused (401) like the hostile ones, but small. */
export function smallRefusedBody(): string {
	return `SMS-From=353871234567&SMS-Content=Yes+please&SMS-Verify=${randomBytes(16).toString('hex')}`;
}

type Kind = 'repeated name' | 'punctuation' | 'small';

const KINDS: Kind[] = ['repeated name', 'punctuation', 'small'];

interface Burst {
	kind: Kind;
	start: number;
	end: number;
	statuses: number[];
	/** Answers that were not a refusal (4xx), as `status: body`. */
	unexpected: string[];
}

interface Phase {
	maxGapMs: number;
	/** The longest gap that overlaps a burst of each kind (0 when none was sent). */
	duringMs: Record<Kind, number>;
	elapsedMs: number;
	polls: number;
	droppedPolls: number;
	bursts: Burst[];
}

function phaseOf({
	answeredAt,
	elapsedMs,
	droppedPolls,
	value: bursts,
}: PollResult<Burst[]>): Phase {
	const during = (kind: Kind) =>
		longestGapDuring(
			answeredAt,
			bursts.filter((b) => b.kind === kind),
		);
	return {
		maxGapMs: longestGap(answeredAt),
		duringMs: Object.fromEntries(KINDS.map((kind) => [kind, during(kind)])) as Record<Kind, number>,
		elapsedMs,
		polls: answeredAt.length - 1,
		droppedPolls,
		bursts,
	};
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The trigger as users have it: replies, opt-outs and receipts, signature verification on (the default). */
async function publishTrigger(env: E2eEnvironment): Promise<{ url: string; workflowId: string }> {
	const workflow = await env.importWorkflow(
		chain('Bench: hostile bodies', [
			phonovationTrigger('Phonovation Trigger', {
				events: ['inbound', 'optOut', 'deliveryReceipt'],
				options: {},
			}),
		]),
	);
	return { url: await env.publish(workflow, 'Phonovation Trigger'), workflowId: workflow.id };
}

async function sendBurst(
	url: string,
	kind: Kind,
	body: () => string,
	size: number,
): Promise<Burst> {
	const bodies = Array.from({ length: size }, body);
	const start = performance.now();
	const { statuses, failures } = await postConcurrently({
		url,
		contentType: FORM,
		bodies,
		concurrency: size,
	});
	const end = performance.now();
	return {
		kind,
		start,
		end,
		statuses,
		unexpected: failures.filter((failure) => !/^4\d\d:/.test(failure)),
	};
}

/**
 * n8n's `/healthz` polled back to back from the bench process, n8n under test in its own.
 * Three phases per round, their order reversed every round: at rest (polling alone); hostile
 * (bursts of `burst` bodies at once at the trigger's production URL, a quarter of a second
 * apart, alternating the two hostile kinds); and a control with the same bursts of short
 * refused replies, which shows what n8n's own handling of `burst` webhook requests at once
 * costs, whatever their body. Each phase starts after a second's pause, so the previous one's
 * garbage is not counted against it.
 */
export async function hostileBody(options: HostileBodyOptions = {}): Promise<CaseResult> {
	const rounds = options.rounds ?? 4;
	const windowMs = options.windowMs ?? 5_000;
	const burst = options.burst ?? 8;
	const burstsPerRound = options.burstsPerRound ?? 4;
	const expressionEngine = options.expressionEngine ?? 'vm';
	const log = options.log ?? (() => {});
	const loadAverage = round(loadavg()[0], 2);
	// Built before any phase, so the bench process does no big work of its own while it polls.
	const repeated = repeatedNameBody();
	const bodyOf: Record<Kind, () => string> = {
		'repeated name': () => repeated,
		punctuation: () => punctuationBody(),
		small: () => smallRefusedBody(),
	};

	log(
		`starting n8n (${expressionEngine} engine) with the packed package (installs and builds on first use)`,
	);
	const env = await startE2eEnvironment({
		log,
		n8nEnv: { N8N_EXPRESSION_ENGINE: expressionEngine },
	});
	try {
		const { url, workflowId } = await publishTrigger(env);
		// First use of the path (module loading, JIT) belongs to no phase.
		for (const kind of KINDS) {
			const warm = await sendBurst(url, kind, bodyOf[kind], 2);
			if (warm.unexpected.length > 0 || warm.statuses.includes(404)) {
				throw new Error(`warm-up ${kind} bodies were answered ${warm.statuses.join(', ')}`);
			}
		}
		const phase =
			(label: string, kinds: Kind[]) =>
			async (r: number): Promise<Phase> => {
				await sleep(1_000);
				const polled = await pollDuring(env.n8n.url, windowMs, async () => {
					const bursts: Burst[] = [];
					for (let b = 0; kinds.length > 0 && b < burstsPerRound; b++) {
						await sleep(250);
						const kind = kinds[b % kinds.length];
						bursts.push(await sendBurst(url, kind, bodyOf[kind], burst));
					}
					return bursts;
				});
				const result = phaseOf(polled);
				log(
					`round ${r + 1}, ${label}: longest gap ${round(result.maxGapMs, 1)} ms over ${result.polls} polls in ${round(result.elapsedMs / 1000, 1)} s`,
				);
				return result;
			};
		const results = await alternate(rounds, {
			rest: phase('at rest', []),
			hostile: phase('hostile', ['repeated name', 'punctuation']),
			small: phase('small refused bodies', ['small']),
		});

		// Anything the trigger let through would be an execution; give n8n a moment to store it.
		await sleep(1_000);
		const executions = await countExecutions(env.client, { workflowId, status: EVERY_STATUS });
		return summarise(results, {
			rounds,
			windowMs,
			burst,
			expressionEngine,
			loadAverage,
			executions,
		});
	} finally {
		await env.stop();
	}
}

interface RunFacts {
	rounds: number;
	windowMs: number;
	burst: number;
	expressionEngine: ExpressionEngine;
	loadAverage: number;
	executions: number;
}

function summarise({ rest, hostile, small }: Record<string, Phase[]>, run: RunFacts): CaseResult {
	// Medians over the rounds, for every phase: on a shared machine a single phase's longest gap
	// can be another process holding the CPU, and the median is the figure that repeats. Every
	// round's figures, and the worst, are in the notes.
	const medianGap = (phases: Phase[]) => median(phases.map((p) => p.maxGapMs));
	const restMaxGapMs = medianGap(rest);
	const hostileMaxGapMs = medianGap(hostile);
	const ratio = round(stallRatio(restMaxGapMs, hostileMaxGapMs, REST_FLOOR_MS), 2);
	const bursts = hostile.flatMap((p) => p.bursts);
	const statuses = bursts.flatMap((b) => b.statuses);
	const sentOf = (kind: Kind) =>
		bursts.filter((b) => b.kind === kind).reduce((n, b) => n + b.statuses.length, 0);
	const refused = statuses.filter((s) => s >= 400 && s < 500).length;
	const byStatus = [...new Set(statuses)]
		.sort((a, b) => a - b)
		.map((s) => `${s}×${statuses.filter((t) => t === s).length}`);
	const during = (kind: Kind) => round(median(hostile.map((p) => p.duringMs[kind])), 1);
	const dropped = [...rest, ...hostile, ...small].reduce((n, p) => n + p.droppedPolls, 0);
	const unexpected = [...bursts, ...small.flatMap((p) => p.bursts)].flatMap((b) =>
		b.unexpected.map((answer) => `${b.kind}: ${answer}`),
	);
	const perRound = (phases: Phase[]) => phases.map((p) => round(p.maxGapMs, 1)).join(', ');
	return {
		line: {
			name: 'hostile-body',
			expressionEngine: run.expressionEngine,
			restMaxGapMs: round(restMaxGapMs, 1),
			hostileMaxGapMs: round(hostileMaxGapMs, 1),
			stallRatio: ratio,
			smallBodyMaxGapMs: round(medianGap(small), 1),
			hostileRequests: statuses.length,
			repeatedNameBodies: sentOf('repeated name'),
			punctuationBodies: sentOf('punctuation'),
			refused,
			executions: run.executions,
			loadAverage: run.loadAverage,
		},
		summary: `${run.rounds} rounds of ≥ ${run.windowMs / 1000} s, ${run.burst} bodies of ≤ 64 KiB at once: longest /healthz gap ${round(hostileMaxGapMs, 1)} ms under attack vs ${round(restMaxGapMs, 1)} ms at rest and ${round(medianGap(small), 1)} ms under as many short refused replies (medians); ${refused} of ${statuses.length} refused, ${run.executions} executions; load average ${run.loadAverage}`,
		target: 'stallRatio ≤ 2.0, executions 0, every body refused (4xx)',
		met: ratio <= 2 && run.executions === 0 && refused === statuses.length,
		notes: [
			`per round, longest gap at rest: ${perRound(rest)} ms; under attack: ${perRound(hostile)} ms (worst ${round(Math.max(...hostile.map((p) => p.maxGapMs)), 1)} ms); short refused replies: ${perRound(small)} ms`,
			`longest gap overlapping a burst (median over rounds): repeated name ${during('repeated name')} ms, punctuation ${during('punctuation')} ms; hostile / short refused replies ${round(hostileMaxGapMs / Math.max(medianGap(small), REST_FLOOR_MS), 2)}`,
			`answers: ${byStatus.join(', ')}; hostile phases took ${hostile.map((p) => round(p.elapsedMs / 1000, 1)).join(', ')} s; polls per phase at rest ${median(rest.map((p) => p.polls))}, under attack ${median(hostile.map((p) => p.polls))} (medians)${dropped > 0 ? `; ${dropped} polls lost their connection while n8n was blocked` : ''}`,
			...(unexpected.length > 0
				? [`not refused: ${unexpected.length}, e.g. ${unexpected[0].replace(/\s+/g, ' ')}`]
				: []),
		],
	};
}
