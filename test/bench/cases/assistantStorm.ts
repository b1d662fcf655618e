import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';

import { startE2eEnvironment, webhookPathOf } from '../../e2e/support/environment';
import { assistantExample, loadExample, publishQuestionLog } from '../../e2e/support/examples';
import type { N8nClient, WorkflowJson } from '../../e2e/support/n8n-client';
import { startQueueModeEnvironment } from '../../e2e/support/queue-environment';
import { ensureRedisServer, startRedis } from '../../e2e/support/queue-redis';
import { DEFAULT_CONFIG, type Simulator } from '../../simulator';
import { CHAT_COMPLETIONS } from '../../simulator/chatModel';
import { dataTableDebounce, handBuiltDebounce } from '../support/handBuiltDebounce';
import type { BenchLine, CaseResult } from '../support/report';
import { round } from '../support/stats';
import {
	executionCount,
	outcomeOf,
	peakRss,
	repliesByPhone,
	runStorm,
	treeCpuMs,
	type StormOutcome,
	type StormPerson,
	stormPlan,
	untilAnswered,
} from '../support/storm';

export interface AssistantStormOptions {
	people?: number;
	seconds?: number;
	quietSeconds?: number;
	/** How long the chat model takes to answer each call. */
	modelMs?: number;
	modes?: Mode[];
	log?: (line: string) => void;
}

/** How many texts and replies each person has logged before the storm, spread over 30 days. */
export const HISTORY_DAYS = 30;

type Mode = 'default' | 'queue';
/** Ours, the templates' Redis debounce, and that debounce on a Data Table (one execution per text). */
type Contender = 'ours' | 'handBuilt' | 'dataTable';

/** The account's longcode: people text it, and replies go from it. */
const LONGCODE = DEFAULT_CONFIG.senders.find((sender) => sender.type === 2)!.name;

/** One n8n to storm: its REST client, the simulator, and where its processes are. */
export interface Host {
	client: N8nClient;
	sim: Simulator;
	importWorkflow(workflow: WorkflowJson): Promise<WorkflowJson & { id: string }>;
	/** The URL of a published workflow's webhook (`<webhookId>/<path>` or a Webhook node's path). */
	webhookUrl(webhookPath: string): string;
	redis: { host: string; port: number };
	pids: number[];
	stop(): Promise<void>;
}

async function startHost(mode: Mode, log: (line: string) => void): Promise<Host> {
	if (mode === 'queue') {
		const env = await startQueueModeEnvironment({ log });
		return {
			client: env.client,
			sim: env.sim,
			importWorkflow: env.importWorkflow,
			webhookUrl: (webhookPath) => `${env.n8n.webhook.url}/webhook/${webhookPath}`,
			redis: env.redis,
			pids: [env.n8n.main, env.n8n.webhook, ...env.n8n.workers].flatMap((p) =>
				p.pid ? [p.pid] : [],
			),
			stop: env.stop,
		};
	}
	const redis = await startRedis(await ensureRedisServer(log));
	// n8n's own settings (not the shared test n8n's): a fresh n8n of its own per contender.
	const env = await startE2eEnvironment({
		log,
		n8nEnv: {
			N8N_LOG_LEVEL: 'warn',
			...(process.env.STORM_N8N_NODE_OPTIONS
				? { NODE_OPTIONS: process.env.STORM_N8N_NODE_OPTIONS }
				: {}),
			...JSON.parse(process.env.STORM_N8N_ENV ?? '{}'),
		},
	});
	return {
		client: env.client,
		sim: env.sim,
		importWorkflow: (workflow) => env.importWorkflow(workflow),
		webhookUrl: (webhookPath) => env.n8n.webhookUrl(webhookPath),
		redis,
		pids: env.n8n.pid ? [env.n8n.pid] : [],
		stop: async () => {
			await env.stop();
			await redis.stop();
		},
	};
}

/** Until n8n's webhook answers (a freshly published one may 404 for a moment). */
async function untilServed(send: () => Promise<{ status: number }>, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	while ((await send()).status !== 200) {
		if (Date.now() > deadline) throw new Error('the webhook was never served');
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * The shipped inbox and sms-assistant, set up as the docs say, with the simulator's chat model and
 * no tools (the hand-built has none: one model call a turn each). Returns how to text it.
 */
export async function publishOurs(
	host: Pick<Host, 'client' | 'sim' | 'importWorkflow' | 'webhookUrl'>,
	quietSeconds: number,
) {
	const questionLog = await publishQuestionLog(host);
	const example = await assistantExample(host.client, host.sim.url, questionLog);
	const tools = new Set(['List Sender IDs', 'Hand Over to Staff']);
	const assistant = await host.importWorkflow({
		...example,
		nodes: example.nodes
			.filter((node) => !tools.has(node.name))
			.map((node) =>
				node.name === 'Collect Burst'
					? { ...node, parameters: { ...(node.parameters as object), quietSeconds } }
					: node,
			),
		connections: Object.fromEntries(
			Object.entries(example.connections).filter(([from]) => !tools.has(from)),
		),
	});
	await host.client.publishWorkflow(assistant.id);
	const webhookId = randomUUID();
	const inbox = await host.importWorkflow(
		loadExample('inbox', {
			questionLog,
			keywordReplies: false,
			assistantWorkflow: assistant.id,
			webhookId,
		}),
	);
	await host.client.publishWorkflow(inbox.id);
	const url = host.webhookUrl(webhookPathOf(inbox, 'On Reply or Opt-Out'));
	await host.client.waitForWebhook(url, 60_000);
	return (phone: string, content: string) =>
		host.sim.sendInbound({ url, from: phone, to: LONGCODE, content, linked: false });
}

/** Publishes a debounce built for the path it is given, and returns how to text it. */
async function publishDebounce(
	host: Host,
	build: (common: { path: string; chatUrl: string; sender: string }) => WorkflowJson,
) {
	const path = `storm-${randomUUID()}`;
	const chatUrl = `${host.sim.url}${CHAT_COMPLETIONS}`;
	const workflow = await host.importWorkflow(build({ path, chatUrl, sender: LONGCODE }));
	await host.client.publishWorkflow(workflow.id);
	const url = host.webhookUrl(path);
	return (phone: string, content: string) =>
		host.sim.sendInbound({ url, from: phone, to: LONGCODE, content, linked: false });
}

async function publishHandBuilt(host: Host, quietSeconds: number) {
	const redis = await host.client.createCredential('Bench Redis', 'redis', {
		host: host.redis.host,
		port: host.redis.port,
		database: 0,
		password: '',
	});
	const credential = { id: String(redis.id), name: redis.name };
	return await publishDebounce(host, (common) =>
		handBuiltDebounce({ ...common, quietSeconds, redis: credential }),
	);
}

/** The hand-built debounce with an n8n Data Table in place of Redis (dataTableDebounce). */
async function publishDataTableDebounce(host: Host, quietSeconds: number) {
	const table = await host.client.createDataTable(`storm-${randomUUID().slice(0, 8)}`, [
		{ name: 'phone', type: 'string' },
		{ name: 'text', type: 'string' },
		{ name: 'run', type: 'string' },
	]);
	return await publishDebounce(host, (common) =>
		dataTableDebounce({ ...common, quietSeconds, tableId: table.id }),
	);
}

const PUBLISH: Record<
	Contender,
	(
		host: Host,
		quietSeconds: number,
	) => Promise<(phone: string, content: string) => Promise<{ status: number }>>
> = { ours: publishOurs, handBuilt: publishHandBuilt, dataTable: publishDataTableDebounce };

export interface StormRun extends StormOutcome {
	mode: Mode;
	contender: Contender;
	executionsPerText: number;
	peakRssMb: number;
	/** n8n's CPU time (its processes and task runners) per text, from the storm's start to the last reply. */
	cpuMsPerText: number;
	/** Executions still running or waiting once every reply was in (none should be). */
	leftOpen: number;
}

/** One contender in one mode, in an n8n of its own: set up, warmed up with one person, then the storm. */
export async function stormOnce(
	mode: Mode,
	contender: Contender,
	plan: StormPerson[],
	settings: {
		quietSeconds: number;
		modelMs: number;
		log: (line: string) => void;
		/** Texts and replies each person has in the log before the storm (ours only). */
		history?: number;
	},
): Promise<StormRun> {
	const { quietSeconds, modelMs, log, history = 0 } = settings;
	const host = await startHost(mode, log);
	try {
		const send = await PUBLISH[contender](host, quietSeconds);
		host.sim.injectFault(CHAT_COMPLETIONS, { kind: 'delay', ms: modelMs }, 1_000_000);
		// A warm-up person, answered before the storm, so n8n has loaded every node once.
		const warmUp = stormPlan(1, 1, 99, 99);
		await untilServed(() => send(warmUp[0].phone, 'warming up'));
		await untilAnswered(host.sim, warmUp, { deadlineMs: 60_000, settleMs: 0 });
		if (contender === 'ours' && history > 0) await seedHistory(host.client, plan, history);
		host.sim.reset();
		host.sim.injectFault(CHAT_COMPLETIONS, { kind: 'delay', ms: modelMs }, 1_000_000);
		const before = await executionCount(host.client);
		const memory = peakRss(host.pids);
		const cpu = () => host.pids.reduce((sum, pid) => sum + treeCpuMs(pid), 0);
		const cpuBefore = cpu();
		log(`${mode} mode, ${contender}: ${plan.length} people texting …`);
		const sent = await runStorm(plan, send);
		await untilAnswered(host.sim, plan, { deadlineMs: 240_000, settleMs: 2 * quietSeconds * 1000 });
		const peakRssMb = memory.stop();
		const cpuMs = cpu() - cpuBefore;
		const outcome = outcomeOf(plan, sent, host.sim);
		if (process.env.STORM_DUMP && contender === 'ours')
			await dumpMisanswered(host, plan, process.env.STORM_DUMP);
		const executions = (await executionCount(host.client)) - before;
		const leftOpen = await executionCount(host.client, ['new', 'running', 'waiting']);
		log(
			`${mode} mode, ${contender}: ${outcome.exactlyOne}/${outcome.people} exactly one reply, p95 ${outcome.p95Ms} ms, relay p95 ${outcome.relayP95Ms} ms, ${executions} executions, peak RSS ${peakRssMb} MB, CPU ${round(cpuMs / outcome.texts)} ms/text`,
		);
		return {
			...outcome,
			mode,
			contender,
			executionsPerText: round(executions / outcome.texts, 2),
			peakRssMb,
			cpuMsPerText: round(cpuMs / outcome.texts),
			leftOpen,
		};
	} finally {
		await host.stop();
	}
}

/**
 * Gives every person `count` logged messages (a text and our reply in turn, each text's turn
 * answered), evenly over the last 30 days up to an hour ago: what the nightly clean-up keeps of
 * a regular. The table holds every person's rows, so each read of the log meets all of them.
 */
async function seedHistory(client: N8nClient, plan: StormPerson[], count: number) {
	const table = (await client.dataTables()).find((t) => t.name === 'messages');
	if (!table) throw new Error('the inbox has no messages table after the warm-up');
	const span = HISTORY_DAYS * 86_400_000 - 3_600_000;
	const now = Date.now();
	const rows = plan.flatMap((person, p) =>
		Array.from({ length: count }, (_, i) => {
			const at = new Date(now - 3_600_000 - span + (span * i) / count).toISOString();
			const turn = `turn:in:h${p}-${i - (i % 2)}`;
			return i % 2 === 0
				? {
						kind: 'in',
						phone: person.phone,
						key: `h${p}-${i}`,
						text: `Earlier question ${i}`,
						at,
						arrivedAt: at,
						messageId: `in:h${p}-${i}`,
						turn,
					}
				: {
						kind: 'out',
						phone: person.phone,
						key: turn,
						text: `Earlier answer ${i}`,
						at,
						arrivedAt: '',
						messageId: `out:h${p}-${i}`,
						turn,
					};
		}),
	);
	for (let i = 0; i < rows.length; i += 1000)
		await client.insertDataTableRows(table.id, rows.slice(i, i + 1000));
}

/**
 * For a look at why: the `messages` rows and reply times of every person not answered exactly once,
 * written to `file` (STORM_DUMP=<file>).
 */
async function dumpMisanswered(host: Host, plan: StormPerson[], file: string) {
	const replies = repliesByPhone(host.sim, plan);
	const phones = plan.map((p) => p.phone).filter((phone) => replies.get(phone)?.length !== 1);
	const table = (await host.client.dataTables()).find((t) => t.name === 'messages');
	const rows = table ? await host.client.dataTableRows(table.id) : [];
	const people = phones.map((phone) => ({
		phone,
		replies: replies.get(phone)?.map((at) => new Date(at).toISOString()),
		rows: rows.filter((row) => row.phone === phone),
	}));
	writeFileSync(file, JSON.stringify(people, null, 1));
}

/**
 * `people` people texting in `seconds` (default 100 in 30 s), each a burst of 1–3 texts, through
 * the shipped inbox and sms-assistant and through a hand-built debounce, in the default mode and in
 * queue mode (two workers at n8n's default concurrency), each in a fresh n8n. The chat model
 * answers after `modelMs`; the ideal is Quiet Time + that.
 */
export async function assistantStorm(options: AssistantStormOptions = {}): Promise<CaseResult> {
	const people = options.people ?? 100;
	const seconds = options.seconds ?? 30;
	const quietSeconds = options.quietSeconds ?? 5;
	const modelMs = options.modelMs ?? 800;
	const modes = options.modes ?? ['default', 'queue'];
	const log = options.log ?? (() => {});
	const idealMs = quietSeconds * 1000 + modelMs;
	const runs: StormRun[] = [];
	for (const mode of modes)
		for (const [n, contender] of (['ours', 'handBuilt'] as const).entries())
			if (!process.env.STORM_ONLY || process.env.STORM_ONLY === contender)
				runs.push(
					await stormOnce(mode, contender, stormPlan(people, seconds, 1, n), {
						quietSeconds,
						modelMs,
						log,
					}),
				);
	const line: BenchLine = { name: 'assistant-storm', people, seconds };
	const checks: boolean[] = [];
	const summaries: string[] = [];
	/** Figures reported for ours and, prefixed `handBuilt`, for the hand-built debounce. */
	const paired = [
		'exactlyOne',
		'p95Ms',
		'relayP95Ms',
		'executionsPerText',
		'peakRssMb',
		'cpuMsPerText',
	] as const;
	for (const mode of modes) {
		const ours = runs.find((r) => r.mode === mode && r.contender === 'ours');
		// Missing when one contender ran alone (STORM_ONLY).
		const theirs = runs.find((r) => r.mode === mode && r.contender === 'handBuilt');
		const prefix = mode === 'default' ? '' : 'queue';
		const key = (name: string) =>
			prefix ? `${prefix}${name[0].toUpperCase()}${name.slice(1)}` : name;
		const upper = (name: string) => `${name[0].toUpperCase()}${name.slice(1)}`;
		for (const field of paired) {
			if (ours) Object.assign(line, { [key(field)]: ours[field] });
			if (theirs) Object.assign(line, { [key(`handBuilt${upper(field)}`)]: theirs[field] });
		}
		if (!ours) continue;
		Object.assign(line, {
			[key('twoOrMore')]: ours.twoOrMore,
			[key('p95VsIdeal')]: round(ours.p95Ms / idealMs, 2),
			...(theirs ? { [key('p95VsHandBuilt')]: round(ours.p95Ms / theirs.p95Ms, 2) } : {}),
		});
		checks.push(
			ours.exactlyOne === people,
			ours.relayP95Ms <= 1000,
			mode === 'queue' || ours.p95Ms <= 1.5 * idealMs,
			...(theirs ? [ours.peakRssMb <= 1.5 * theirs.peakRssMb, ours.p95Ms <= theirs.p95Ms] : []),
		);
		const their = (figure: number | undefined) => (theirs ? ` (hand-built ${figure})` : '');
		summaries.push(
			`${mode} mode: ours ${ours.exactlyOne}/${people} one reply, p95 ${ours.p95Ms} ms${their(theirs?.p95Ms)}, ideal ${idealMs} ms, relay p95 ${ours.relayP95Ms} ms, ${ours.executionsPerText} executions/text${their(theirs?.executionsPerText)}, RSS ${ours.peakRssMb} MB${their(theirs?.peakRssMb)}`,
		);
	}
	const summary = summaries.join('; ');
	return {
		line,
		summary: `${people} people in ${seconds} s, Quiet Time ${quietSeconds} s, model ${modelMs} ms: ${summary}`,
		target:
			'every person one reply; relay p95 ≤ 1 s; RSS ≤ 1.5× hand-built; p95 ≤ hand-built (and ≤ 1.5× ideal in the default mode)',
		met: checks.every(Boolean),
		notes: runs.map(
			(r) =>
				`${r.mode}/${r.contender}: ${r.exactlyOne} one, ${r.none} none, ${r.twoOrMore} two+; p50 ${r.p50Ms} p95 ${r.p95Ms} max ${r.maxMs} ms; relay p50 ${r.relayP50Ms} p95 ${r.relayP95Ms} ms (${r.relayFailures} failed); ${r.executionsPerText} exec/text; CPU ${r.cpuMsPerText} ms/text; left open ${r.leftOpen}`,
		),
	};
}

/**
 * The floor of one execution per text on n8n's own Data Table nodes: the storm (default mode)
 * through the templates' Redis debounce and through the same debounce on a Data Table, side by
 * side in fresh n8ns, alternating. What an inbox reshaped to run its Data Table steps inline (no
 * Question Log sub-runs, the turn in the relay's own execution) could reach at best.
 */
export async function assistantStormFloor(
	options: { people?: number; seconds?: number; log?: (line: string) => void } = {},
): Promise<CaseResult> {
	const { people = 100, seconds = 30, log = () => {} } = options;
	const settings = { quietSeconds: 5, modelMs: 800, log };
	const runs: StormRun[] = [];
	for (const [n, contender] of (
		['dataTable', 'handBuilt', 'handBuilt', 'dataTable'] as const
	).entries())
		runs.push(await stormOnce('default', contender, stormPlan(people, seconds, 1, n), settings));
	const mean = (
		contender: Contender,
		field: 'cpuMsPerText' | 'p95Ms' | 'peakRssMb' | 'relayP95Ms',
	) =>
		round(runs.filter((r) => r.contender === contender).reduce((sum, r) => sum + r[field], 0) / 2);
	const ratio = round(mean('dataTable', 'cpuMsPerText') / mean('handBuilt', 'cpuMsPerText'), 2);
	return {
		line: {
			name: 'assistant-storm-floor',
			people,
			seconds,
			cpuMsPerText: mean('dataTable', 'cpuMsPerText'),
			handBuiltCpuMsPerText: mean('handBuilt', 'cpuMsPerText'),
			ratio,
			p95Ms: mean('dataTable', 'p95Ms'),
			handBuiltP95Ms: mean('handBuilt', 'p95Ms'),
			peakRssMb: mean('dataTable', 'peakRssMb'),
			handBuiltPeakRssMb: mean('handBuilt', 'peakRssMb'),
		},
		summary: `${people} people in ${seconds} s, default mode: on a Data Table ${mean('dataTable', 'cpuMsPerText')} ms CPU/text, p95 ${mean('dataTable', 'p95Ms')} ms, RSS ${mean('dataTable', 'peakRssMb')} MB; on Redis ${mean('handBuilt', 'cpuMsPerText')} ms, p95 ${mean('handBuilt', 'p95Ms')} ms, RSS ${mean('handBuilt', 'peakRssMb')} MB`,
		target: 'reported: the floor a one-execution inbox on Data Tables could reach',
		met: runs.every((r) => r.exactlyOne === people),
		notes: runs.map(
			(r) =>
				`${r.contender}: ${r.exactlyOne} one, ${r.none} none, ${r.twoOrMore} two+; p50 ${r.p50Ms} p95 ${r.p95Ms} ms; relay p95 ${r.relayP95Ms} ms; ${r.executionsPerText} exec/text; CPU ${r.cpuMsPerText} ms/text; RSS ${r.peakRssMb} MB; left open ${r.leftOpen}`,
		),
	};
}

/**
 * What a text costs as people's logs grow: the light storm (12 people in 40 s, nobody waits on a
 * backlog) through ours, each person with 10 and then 2,000 logged messages before it, in fresh
 * n8ns, alternating (10, 2,000, 2,000, 10) so a machine's drift falls on both. The target: n8n's
 * CPU per text with 2,000 within 1.2× of it with 10.
 */
export async function assistantStormHistory(
	options: {
		people?: number;
		seconds?: number;
		short?: number;
		long?: number;
		log?: (line: string) => void;
	} = {},
): Promise<CaseResult> {
	const { people = 12, seconds = 40, short = 10, long = 2_000, log = () => {} } = options;
	const settings = { quietSeconds: 5, modelMs: 800, log };
	const runs: Array<{ history: number; run: StormRun }> = [];
	for (const history of [short, long, long, short])
		runs.push({
			history,
			run: await stormOnce('default', 'ours', stormPlan(people, seconds, 1, 0), {
				...settings,
				history,
			}),
		});
	const cpu = (history: number) =>
		runs.filter((r) => r.history === history).reduce((sum, r) => sum + r.run.cpuMsPerText, 0) / 2;
	const ratio = round(cpu(long) / cpu(short), 2);
	const allOne = runs.every((r) => r.run.exactlyOne === people);
	return {
		line: {
			name: 'assistant-storm-history',
			people,
			seconds,
			cpuMsPerTextShort: round(cpu(short)),
			cpuMsPerTextLong: round(cpu(long)),
			ratio,
		},
		summary: `${people} people in ${seconds} s, each with ${short} or ${long} logged messages over ${HISTORY_DAYS} days: n8n CPU ${round(cpu(short))} vs ${round(cpu(long))} ms/text, ratio ${ratio}`,
		target: `CPU per text with ${long} logged messages ≤ 1.2× that with ${short}; every person one reply`,
		met: ratio <= 1.2 && allOne,
		notes: runs.map(
			(r) =>
				`history ${r.history}: ${r.run.exactlyOne}/${people} one reply; p95 ${r.run.p95Ms} ms; ${r.run.executionsPerText} exec/text; CPU ${r.run.cpuMsPerText} ms/text`,
		),
	};
}
