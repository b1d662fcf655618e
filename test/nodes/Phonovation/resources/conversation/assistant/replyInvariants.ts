/**
 * Reply's promises over generated conversations, for reply.property.test.ts (a fixed seed) and
 * `npm run fuzz` (test/fuzz/conversationInvariants.ts, a random one). Each run is a few executions
 * of Reply, one turn each, against the simulator and the Question Log the inbox is. The generator
 * knows: turns answered again (replays, re-runs), messy and hostile numbers, exclusions, the
 * provider's faults, n8n's Retry On Fail, executions racing with their log writes slowed down, a
 * second Reply node in the same execution, and an execution whose log call failed after writing,
 * retried from the executions list. Each broken promise is a line starting with its label:
 *
 * - `T` a turn is answered at most once (per person: a turn id names one of their texts);
 * - `X` never to an excluded number; `O` never to our own sender or a shortcode; `W` only to who
 *   wrote; `F` only from a numeric sender of the account, the one the person texted;
 * - `H` never more replies to one number than the highest limit any run allowed;
 * - `E` every item says what happened: one output item, no error (a retried execution may fail
 *   again on the provider's fault, never on the log);
 * - `A` "already answered" only when some run did answer that turn (under any number).
 */
import fc from 'fast-check';
import type { IDataObject, IExecuteContextData } from 'n8n-workflow';

import { DEFAULT_DISCLOSURE } from '../../../../../../nodes/Phonovation/resources/conversation/assistant/disclosure';
import { QUESTION_LOG, type QuestionLog } from '../../../../../harness/question-log';
import type { NodeRunResult } from '../../../../../harness/engine';
import type { Fault } from '../../../../../simulator/faults';
import type { PhonovationFixture } from '../../../fixture';

const CAMPAIGN = '/api/v2/Campaign';
/** The simulator account's numeric longcode, the number people text. */
const LONGCODE = '353851234567';
const ANNA = '353871234567';
const BRIAN = '353861111111';

/** How a person's number may come: the same number written three ways, others, and junk. */
const FROM = [
	...[ANNA, '0871234567', '+353 87 123 4567', BRIAN, BRIAN],
	...['353831234501', '353831234502', '353831234503'],
	...['50123', LONGCODE, 'hello', ''],
];
/** What the unsigned SMS-To may say: mostly our longcode; our alphanumeric sender, a stranger, nothing. */
const TO = [LONGCODE, LONGCODE, LONGCODE, 'Phonovation', '353899999999', undefined];
/** Exclude Numbers as the inbox's opt-out lookup gives it: Anna in another format, Brian, none. */
const EXCLUDE = [['087 123 4567'], [BRIAN], [], [], ['087 123 4567', BRIAN]];
const FAULTS: Array<Fault | null> = [
	null,
	null,
	{ kind: 'status', status: 500 },
	{ kind: 'answer', status: 500, body: 'Internal Server Error' },
	{ kind: 'status', status: 429, retryAfter: 0 },
	{ kind: 'reset' },
];

export interface Execution {
	turn: string;
	from: string;
	to: string | undefined;
	exclude: string[];
	fault: Fault | null;
	retryOnFail: boolean;
	repliesPerHour: number;
	/** Which Reply node: a second one (a fallback) runs in the execution of a Reply's run before it. */
	node: 'Reply' | 'Fallback Reply';
	/** Runs at the same time as the next execution (two copies of a relay racing). */
	racesNext: boolean;
	/** Its log write lands this many ms late (a busy worker, a slow Data Table). */
	slowWriteMs: number;
	/** Its log call fails once after writing (a Data Table hiccup); the execution is then retried. */
	failsAfterLog: boolean;
}

const execution: fc.Arbitrary<Execution> = fc.record({
	turn: fc.constantFrom('turn:a', 'turn:b', 'turn:c', 'turn:d', 'turn:e', ''),
	from: fc.constantFrom(...FROM),
	to: fc.constantFrom(...TO),
	exclude: fc.constantFrom(...EXCLUDE),
	fault: fc.constantFrom(...FAULTS),
	retryOnFail: fc.boolean(),
	repliesPerHour: fc.integer({ min: 1, max: 4 }),
	node: fc.constantFrom('Reply' as const, 'Reply' as const, 'Fallback Reply' as const),
	racesNext: fc.boolean(),
	slowWriteMs: fc.constantFrom(0, 0, 40, 120),
	failsAfterLog: fc.constantFrom(false, false, false, true),
});

/** The number as the provider gets it: international digits. */
const international = (phone: string) => {
	const digits = phone.replace(/\D/g, '');
	return digits.startsWith('0') ? `353${digits.slice(1)}` : digits;
};

export interface ReplyWorld {
	fixture: PhonovationFixture;
	log: QuestionLog;
}

interface Outcome {
	result: NodeRunResult;
	posted: IDataObject[];
}

let executions = 0;
const nodeIdOf = (run: Execution) => (run.node === 'Reply' ? 'reply-node' : 'fallback-reply-node');

/** One execution of Reply for one turn; one whose log fails after writing is retried as n8n does. */
async function reply(
	{ fixture }: ReplyWorld,
	run: Execution,
	executionId: string,
	index: number,
): Promise<Outcome> {
	if (run.fault) fixture.sim.injectFault(CAMPAIGN, run.fault);
	// Each run's text names it: racing runs' posts are told apart by it.
	const message = `Thanks, see you Friday. (${index})`;
	const parameters = {
		resource: 'conversation',
		operation: 'reply',
		questionLog: QUESTION_LOG,
		recipients: '={{ $json.from }}',
		textedNumber: '={{ $json.unverified?.to }}',
		message,
		answers: '={{ $json.turn }}',
		options: { excludeNumbers: run.exclude.join(','), repliesPerHour: run.repliesPerHour },
	};
	const items = [
		{
			json: {
				event: 'inbound',
				verified: true,
				from: run.from,
				turn: run.turn,
				unverified: { to: run.to },
			},
		},
	];
	const node = {
		id: nodeIdOf(run),
		name: run.node,
		// An execution that is to fail (and be retried) must not continue on its failure.
		continueOnFail: !run.failsAfterLog,
		...(run.retryOnFail ? { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } : {}),
	};
	let result = await fixture.run(parameters, items, node, { executionId });
	if (result.error && run.failsAfterLog) {
		// Retry from the executions list: a new execution with the failed one's node contexts.
		const contextData: IExecuteContextData | undefined = result.run.data.executionData?.contextData;
		result = await fixture.run(parameters, items, node, {
			executionId: `${executionId}-retry`,
			mode: 'retry',
			contextData,
		});
	}
	fixture.sim.clearFaults();
	const posted = fixture.sim.campaigns
		.map((c) => c.body as IDataObject)
		// The message as written, or with the AI Disclosure on a line before it (a person's first reply).
		.filter((body) => body.text === message || body.text === `${DEFAULT_DISCLOSURE}\n${message}`);
	return { result, posted };
}

/** Runs the executions, racing ones together, with the log's writes slowed and failing as generated. */
async function play(world: ReplyWorld, runs: Execution[]): Promise<Outcome[]> {
	const { log } = world;
	// A fallback Reply node answers in the same execution as a Reply node's run before it.
	const ids = runs.map((run, i) =>
		run.node === 'Fallback Reply' && runs[i - 1]?.node === 'Reply'
			? `reply-property-${executions}`
			: `reply-property-${++executions}`,
	);
	// A run's log rows name its execution, and its node (a fallback Reply shares the execution).
	const failing = new Set(runs.flatMap((run, i) => (run.failsAfterLog ? [i] : [])));
	const runOf = (call: IDataObject) => {
		const id = String(call.id);
		const mine = runs.flatMap((_, i) => (id.includes(`:${ids[i]}:`) ? [i] : []));
		return mine.find((i) => id.includes(`:${nodeIdOf(runs[i])}:`)) ?? mine[0] ?? -1;
	};
	log.beforeWrite = async (call) => {
		const ms = runs[runOf(call)]?.slowWriteMs ?? 0;
		if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
	};
	log.afterWrite = async (call) => {
		if (!failing.delete(runOf(call))) return;
		throw new Error('SQLITE_BUSY: database is locked');
	};
	const batches: number[][] = [];
	runs.forEach((run, i) =>
		i > 0 && runs[i - 1].racesNext ? batches.at(-1)!.push(i) : batches.push([i]),
	);
	const outcomes: Outcome[] = [];
	for (const batch of batches) {
		const done = await Promise.all(batch.map(async (i) => await reply(world, runs[i], ids[i], i)));
		done.forEach((outcome, k) => (outcomes[batch[k]] = outcome));
	}
	return outcomes;
}

/** The promises the runs broke, each starting with its label (`T: …`). */
export function violationsOf(runs: Execution[], outcomes: Outcome[]): string[] {
	const problems: string[] = [];
	const perTurn = new Map<string, number>();
	const perPhone = new Map<string, number>();
	const turnOf = (run: Execution) => `${international(run.from)} ${run.turn}`;
	for (const [i, run] of runs.entries()) {
		const { result, posted } = outcomes[i];
		const label = `run ${i}`;
		// A retried execution runs without Continue On Fail: the provider's fault may fail it again
		// (the user retries once more, and the campaign's record keeps that safe); the log may not.
		const failedAgain = run.failsAfterLog && !/Question Log/.test(String(result.error?.message));
		if (!failedAgain && (result.error !== undefined || result.items.length !== 1))
			problems.push(
				`E: ${label} put out ${result.items.length} items, error ${String(result.error?.message)}`,
			);
		for (const body of posted) {
			if (body.from !== LONGCODE) problems.push(`F: ${label} texted from ${String(body.from)}`);
			if (run.to !== LONGCODE)
				problems.push(`F: ${label} texted though the person texted ${run.to}`);
			for (const { msisdn } of body.recipientInfo as Array<{ msisdn: string }>) {
				if (run.exclude.map(international).includes(msisdn))
					problems.push(`X: ${label} texted the excluded ${msisdn}`);
				if ([LONGCODE, '50123'].includes(msisdn)) problems.push(`O: ${label} texted ${msisdn}`);
				if (msisdn !== international(run.from))
					problems.push(`W: ${label} texted ${msisdn}, not who wrote (${run.from})`);
				perPhone.set(msisdn, (perPhone.get(msisdn) ?? 0) + 1);
			}
		}
		if (run.turn !== '') perTurn.set(turnOf(run), (perTurn.get(turnOf(run)) ?? 0) + posted.length);
	}
	for (const [turn, count] of perTurn)
		if (count > 1) problems.push(`T: turn ${turn} was answered ${count} times`);
	const limit = Math.max(...runs.map((run) => run.repliesPerHour));
	for (const [phone, count] of perPhone)
		if (count > limit) problems.push(`H: ${phone} got ${count} replies, over the limit ${limit}`);
	// What a reply answers is known across numbers (a relay's key is the same under a moved boundary).
	// A reply that passed its guards answered, whatever the provider then said of the number.
	const passed = (o: Outcome) => {
		const out = o.result.items[0]?.json;
		// An error after the reply was logged (Continue On Fail) may have claimed it: never sent twice.
		return (
			o.posted.length > 0 ||
			o.result.error !== undefined ||
			// A reply logged first and then held back by the hourly limit took the answer too.
			(out !== undefined && (out.sent !== false || /replies per hour/.test(String(out.reason))))
		);
	};
	const answered = new Set(runs.filter((_, i) => passed(outcomes[i])).map((r) => r.turn));
	for (const [i, run] of runs.entries()) {
		const reason = String(outcomes[i].result.items[0]?.json.reason ?? '');
		if (/already answered/.test(reason) && !answered.has(run.turn))
			problems.push(`A: run ${i} says already answered, but no run answered ${run.turn}`);
	}
	return problems;
}

export const labelOf = (problem: string) => problem.split(':')[0];

export interface ReplyPropertyOptions {
	ignore?: readonly string[];
	survey?: (problems: string[], describe: () => string) => void;
	onRun?: (ms: number, sent: number) => void;
}

/** The property: up to 8 executions a run, from a clean simulator and log. */
export function replyProperty(world: () => ReplyWorld, options: ReplyPropertyOptions = {}) {
	const ignored = new Set(options.ignore ?? []);
	return fc.asyncProperty(fc.array(execution, { minLength: 1, maxLength: 8 }), async (runs) => {
		const started = Date.now();
		world().fixture.reset();
		world().log.clear();
		const outcomes = await play(world(), runs);
		options.onRun?.(
			Date.now() - started,
			outcomes.reduce((sum, o) => sum + o.posted.length, 0),
		);
		const problems = violationsOf(runs, outcomes).filter((p) => !ignored.has(labelOf(p)));
		if (problems.length === 0) return;
		const describe = () =>
			JSON.stringify(
				runs.map((run, i) => ({
					...run,
					posted: outcomes[i].posted.length,
					out: outcomes[i].result.items[0]?.json,
				})),
				null,
				1,
			);
		if (options.survey) options.survey(problems, describe);
		else throw new Error(`${problems.join('\n')}\nRun:\n${describe()}`);
	});
}
