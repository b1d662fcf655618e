// A reply storm: many people texting the longcode at once, some in bursts, and what each got back.
import { readdirSync, readFileSync } from 'node:fs';

import type { N8nClient } from '../../e2e/support/n8n-client';
import type { Simulator } from '../../simulator';
import { percentile, round } from './stats';

/** One person of the storm: the texts they send, each at its offset from the storm's start. */
export interface StormPerson {
	phone: string;
	texts: Array<{ atMs: number; content: string }>;
}

/** Texts of one burst come this far apart: within any Quiet Time, as a person types. */
const BURST_GAP_MS = 1_200;

/** A small seeded generator, so two contenders get the very same storm. */
function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

/**
 * `people` people, each sending a burst of 1–3 texts 1.2 s apart, their first text at a random
 * moment of the first `seconds` (the whole burst within them). `prefix` makes the numbers of one
 * storm differ from another's (a person's history would otherwise carry over).
 */
export function stormPlan(people: number, seconds: number, seed = 1, prefix = 0): StormPerson[] {
	const random = seeded(seed);
	return Array.from({ length: people }, (_, i) => {
		const size = 1 + Math.floor(random() * 3);
		const latest = Math.max(0, seconds * 1000 - (size - 1) * BURST_GAP_MS);
		const start = Math.floor(random() * latest);
		return {
			phone: `35387${String(prefix).padStart(2, '0')}${String(i).padStart(5, '0')}`,
			texts: Array.from({ length: size }, (_, t) => ({
				atMs: start + t * BURST_GAP_MS,
				content: t === 0 ? `Hi, question ${i}` : `and part ${t + 1} of it`,
			})),
		};
	});
}

/** What one relay cost n8n to answer, and when the person's last text went. */
export interface StormSent {
	relayMs: number[];
	/** Per phone: when (epoch ms) its last text was answered by n8n. */
	lastSentAt: Map<string, number>;
	failures: string[];
}

/**
 * Posts every text at its moment, as the provider relays it, to `url`, and times n8n's answer.
 * `send` posts one text (the simulator's signed relay, to the contender's URL).
 */
export async function runStorm(
	plan: StormPerson[],
	send: (phone: string, content: string) => Promise<{ status: number }>,
): Promise<StormSent & { startedAt: number }> {
	const relayMs: number[] = [];
	const lastSentAt = new Map<string, number>();
	const failures: string[] = [];
	const startedAt = Date.now();
	const texts = plan
		.flatMap((person) => person.texts.map((text) => ({ ...text, phone: person.phone })))
		.sort((a, b) => a.atMs - b.atMs);
	await Promise.all(
		texts.map(async ({ atMs, phone, content }) => {
			const wait = startedAt + atMs - Date.now();
			if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
			const began = performance.now();
			const { status } = await send(phone, content).catch((error: Error) => ({
				status: 0,
				error,
			}));
			relayMs.push(performance.now() - began);
			if (status !== 200) failures.push(`${phone}: HTTP ${status}`);
			lastSentAt.set(phone, Math.max(lastSentAt.get(phone) ?? 0, Date.now()));
		}),
	);
	return { relayMs, lastSentAt, failures, startedAt };
}

/** The campaigns the provider got for each phone of the plan, with when each arrived. */
export function repliesByPhone(sim: Simulator, plan: StormPerson[]): Map<string, number[]> {
	const replies = new Map(plan.map((person) => [person.phone, [] as number[]]));
	for (const campaign of sim.campaigns)
		for (const recipient of campaign.body.recipientInfo as Array<{ msisdn: string }>)
			replies.get(recipient.msisdn)?.push(Date.parse(campaign.receivedAt));
	return replies;
}

/** Waits until every person of the plan has a reply, or the deadline; then `settleMs` more for second replies. */
export async function untilAnswered(
	sim: Simulator,
	plan: StormPerson[],
	{ deadlineMs, settleMs }: { deadlineMs: number; settleMs: number },
): Promise<void> {
	const deadline = Date.now() + deadlineMs;
	while (Date.now() < deadline) {
		const replies = repliesByPhone(sim, plan);
		if ([...replies.values()].every((at) => at.length > 0)) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	await new Promise((resolve) => setTimeout(resolve, settleMs));
}

/** Executions of this n8n by status, counted through its REST API. */
export async function executionCount(client: N8nClient, status?: string[]): Promise<number> {
	const filter = status ? `filter=${encodeURIComponent(JSON.stringify({ status }))}&` : '';
	const { count } = await client.call<{ count: number }>(
		'GET',
		`/rest/executions?${filter}limit=1`,
	);
	return count;
}

/**
 * Sums what `read` says of a process and every process below it (n8n's task runners): `read`
 * gives a process's parent and its figure from its /proc entry.
 */
function sumOverTree(rootPid: number, read: (pid: string) => { ppid: number; value: number }) {
	const parents = new Map<number, number>();
	const values = new Map<number, number>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const { ppid, value } = read(entry);
			parents.set(Number(entry), ppid);
			values.set(Number(entry), value);
		} catch {
			// The process ended while we looked.
		}
	}
	const inTree = (pid: number): boolean => {
		for (let at = pid, hops = 0; at > 1 && hops < 64; at = parents.get(at) ?? 0, hops++)
			if (at === rootPid) return true;
		return false;
	};
	let sum = 0;
	for (const [pid, value] of values) if (inTree(pid)) sum += value;
	return sum;
}

/** The resident memory (MB) of a process and every process below it. */
export function treeRssMb(rootPid: number): number {
	const kb = sumOverTree(rootPid, (pid) => {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		return {
			ppid: Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0),
			value: Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0),
		};
	});
	return round(kb / 1024);
}

/** The CPU time (ms, user + system) a process and every process below it have used so far. */
export function treeCpuMs(rootPid: number): number {
	const ticks = sumOverTree(rootPid, (pid) => {
		// Fields after the command's closing parenthesis: state ppid … utime(14) stime(15).
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return { ppid: Number(fields[1]), value: Number(fields[11]) + Number(fields[12]) };
	});
	// Linux reports in clock ticks of 10 ms (USER_HZ 100).
	return ticks * 10;
}

/** Samples the trees' summed memory every 250 ms until stopped; the peak. */
export function peakRss(pids: number[]): { stop(): number } {
	let peak = 0;
	const sample = () => {
		peak = Math.max(
			peak,
			pids.reduce((sum, pid) => sum + treeRssMb(pid), 0),
		);
	};
	sample();
	const timer = setInterval(sample, 250);
	return {
		stop() {
			clearInterval(timer);
			sample();
			return peak;
		},
	};
}

/** What a storm came to, per person and overall. */
export interface StormOutcome {
	people: number;
	texts: number;
	/** People with exactly one reply, with none, with more than one. */
	exactlyOne: number;
	none: number;
	twoOrMore: number;
	/** From a person's last text (answered by n8n) to their first reply reaching the provider. */
	p50Ms: number;
	p95Ms: number;
	maxMs: number;
	/** n8n's answer to each relay. */
	relayP50Ms: number;
	relayP95Ms: number;
	relayFailures: number;
}

export function outcomeOf(plan: StormPerson[], sent: StormSent, sim: Simulator): StormOutcome {
	const replies = repliesByPhone(sim, plan);
	const counts = [...replies.values()].map((at) => at.length);
	const latencies = plan.flatMap((person) => {
		const first = Math.min(...(replies.get(person.phone) ?? []));
		const last = sent.lastSentAt.get(person.phone);
		return Number.isFinite(first) && last !== undefined ? [Math.max(0, first - last)] : [];
	});
	const p = (values: number[], at: number) => (values.length ? round(percentile(values, at)) : NaN);
	return {
		people: plan.length,
		texts: plan.reduce((sum, person) => sum + person.texts.length, 0),
		exactlyOne: counts.filter((n) => n === 1).length,
		none: counts.filter((n) => n === 0).length,
		twoOrMore: counts.filter((n) => n > 1).length,
		p50Ms: p(latencies, 50),
		p95Ms: p(latencies, 95),
		maxMs: latencies.length ? round(Math.max(...latencies)) : NaN,
		relayP50Ms: p(sent.relayMs, 50),
		relayP95Ms: p(sent.relayMs, 95),
		relayFailures: sent.failures.length,
	};
}
