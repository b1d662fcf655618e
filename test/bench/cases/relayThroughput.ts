import { randomUUID } from 'node:crypto';

import { type E2eEnvironment, startE2eEnvironment, TYPES } from '../../e2e/support/environment';
import type { N8nClient, WorkflowJson } from '../../e2e/support/n8n-client';
import { relayTimestamp } from '../../simulator/clock';
import { inboundRelay } from '../../simulator/relays';
import { type LoadResult, postConcurrently } from '../support/load';
import type { ExpressionEngine } from '../support/expressionEngine';
import type { CaseResult } from '../support/report';
import { alternate, median, percentile, round } from '../support/stats';

export interface RelayThroughputOptions {
	relays?: number;
	concurrency?: number;
	rounds?: number;
	/** N8N_EXPRESSION_ENGINE of the n8n under test; n8n's default `vm` when not given. */
	expressionEngine?: ExpressionEngine;
	log?: (line: string) => void;
}

const FORM = 'application/x-www-form-urlencoded';

/** Distinct inbound replies signed with the relay secret, as Phonovation sends them. */
function signedRelays(count: number, secret: string): string[] {
	const nowMs = Date.now();
	return Array.from(
		{ length: count },
		(_, i) =>
			inboundRelay(
				{
					from: `35387${String(i).padStart(7, '0')}`,
					content: `Reply number ${i}`,
					notifyId: `bench-${i}`,
					timestamp: relayTimestamp(nowMs),
				},
				{ secret, nowMs, defaultSender: 'Phonovation' },
			).body,
	);
}

/** Waits until n8n answers a relay to this URL with 200 (a freshly published webhook may 404 briefly). */
async function untilServed(url: string, body: string, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const { failures } = await postConcurrently({ url, contentType: FORM, bodies: [body], concurrency: 1 });
		if (failures.length === 0) return;
		if (Date.now() > deadline) throw new Error(`${url} still answers ${failures[0]} after ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** Waits until n8n has finished every execution the last round started, so none spills into the next. */
async function untilIdle(client: N8nClient, timeoutMs = 60_000): Promise<void> {
	const filter = encodeURIComponent(JSON.stringify({ status: ['new', 'running'] }));
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const { count } = await client.call<{ count: number }>('GET', `/rest/executions?filter=${filter}&limit=1`);
		if (count === 0) return;
		if (Date.now() > deadline) throw new Error(`n8n still has ${count} unfinished executions after ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

function singleNodeWorkflow(name: string, node: WorkflowJson['nodes'][number]): WorkflowJson {
	return { name, nodes: [node], connections: {}, settings: { executionOrder: 'v1' } };
}

interface PathResult {
	ours: LoadResult[];
	webhookNode: LoadResult[];
}

interface PathSettings {
	relays: number;
	concurrency: number;
	rounds: number;
	expressionEngine: ExpressionEngine;
	/** N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP: whether n8n's Webhook node may skip the isolate. */
	webhookIsolateSkip: boolean;
	log: (line: string) => void;
}

async function publishContenders(env: E2eEnvironment): Promise<{ ours: string; webhookNode: string }> {
	const triggerId = randomUUID();
	const ours = await env.importWorkflow(
		singleNodeWorkflow('Bench: Phonovation Trigger', {
			id: randomUUID(),
			name: 'Phonovation Trigger',
			type: TYPES.trigger,
			typeVersion: 1.1,
			position: [0, 0],
			webhookId: triggerId,
			parameters: { events: ['inbound', 'optOut', 'deliveryReceipt'], options: {} },
		}),
	);
	const webhookPath = `bench-relay-${randomUUID()}`;
	const theirs = await env.importWorkflow(
		singleNodeWorkflow('Bench: Webhook node', {
			id: randomUUID(),
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
		}),
	);
	await env.client.publishWorkflow(ours.id);
	await env.client.publishWorkflow(theirs.id);
	return { ours: env.n8n.webhookUrl(`${triggerId}/phonovation`), webhookNode: env.n8n.webhookUrl(webhookPath) };
}

/**
 * A real n8n 2.41 with the packed package installed and two published workflows: our trigger,
 * and n8n's Webhook node (POST, respond immediately). The same signed inbound relays go to
 * each in alternating rounds at the same concurrency; every one must be answered 200.
 */
async function measurePath(settings: PathSettings): Promise<PathResult> {
	const { relays, concurrency, rounds, expressionEngine, webhookIsolateSkip, log } = settings;
	const label = webhookIsolateSkip ? 'default path' : 'isolate path';
	log(`starting n8n (${expressionEngine} engine, ${label}) with the packed package (installs and builds on first use)`);
	const env = await startE2eEnvironment({
		log,
		n8nEnv: {
			N8N_EXPRESSION_ENGINE: expressionEngine,
			N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP: String(webhookIsolateSkip),
		},
	});
	try {
		const urls = await publishContenders(env);
		const bodies = signedRelays(relays, env.sim.config.relaySecret);
		const send = async (url: string, list: string[]) => {
			await untilIdle(env.client);
			const result = await postConcurrently({ url, contentType: FORM, bodies: list, concurrency });
			if (result.failures.length > 0) {
				throw new Error(`${result.failures.length} of ${list.length} relays to ${url} were not answered 200, e.g. ${result.failures[0]}`);
			}
			return result;
		};
		// Publishing returns before every webhook answers; then warm both paths up.
		await untilServed(urls.ours, bodies[0]);
		await untilServed(urls.webhookNode, bodies[0]);
		await send(urls.ours, bodies.slice(0, 50));
		await send(urls.webhookNode, bodies.slice(0, 50));
		const runRound = (name: string, url: string) => async (r: number) => {
			const result = await send(url, bodies);
			log(`${label}, ${name} round ${r + 1}: ${Math.round((relays / result.elapsedMs) * 1000)} relays/s`);
			return result;
		};
		const results = await alternate(rounds, {
			ours: runRound('trigger', urls.ours),
			webhookNode: runRound('Webhook node', urls.webhookNode),
		});
		return { ours: results.ours, webhookNode: results.webhookNode };
	} finally {
		await env.stop();
	}
}

/** Relays per second: the median over the rounds. */
function perSecond(results: LoadResult[], relays: number): number {
	return median(results.map((r) => (relays / r.elapsedMs) * 1000));
}

function latencyMs(results: LoadResult[], p: number): number {
	return round(percentile(results.flatMap((r) => r.latenciesMs), p), 1);
}

/**
 * Both nodes on the same path first: n8n's Webhook node is made to acquire an expression isolate
 * per request like every other trigger (the switch off), which is what `ratio` compares. Then
 * n8n as shipped, where only the Webhook node skips it: `defaultPathRatio`.
 */
export async function relayThroughput(options: RelayThroughputOptions = {}): Promise<CaseResult> {
	const settings = {
		relays: options.relays ?? 200,
		concurrency: options.concurrency ?? 8,
		rounds: options.rounds ?? 2,
		expressionEngine: options.expressionEngine ?? 'vm',
		log: options.log ?? (() => {}),
	};
	const { relays, concurrency, rounds, expressionEngine } = settings;
	const shared = await measurePath({ ...settings, webhookIsolateSkip: false });
	const shipped = await measurePath({ ...settings, webhookIsolateSkip: true });
	const oursPerSec = round(perSecond(shared.ours, relays), 1);
	const webhookNodePerSec = round(perSecond(shared.webhookNode, relays), 1);
	const ratio = round(perSecond(shared.ours, relays) / perSecond(shared.webhookNode, relays), 2);
	const defaultPathRatio = round(perSecond(shipped.ours, relays) / perSecond(shipped.webhookNode, relays), 2);
	const p50Ms = latencyMs(shared.ours, 50);
	const p99Ms = latencyMs(shared.ours, 99);
	return {
		line: {
			name: 'relay-throughput',
			expressionEngine,
			relays,
			concurrency,
			oursPerSec,
			webhookNodePerSec,
			ratio,
			p50Ms,
			p99Ms,
			defaultPathRatio,
			defaultPathOursPerSec: round(perSecond(shipped.ours, relays), 1),
			defaultPathWebhookNodePerSec: round(perSecond(shipped.webhookNode, relays), 1),
		},
		summary: `${relays} signed relays × ${rounds} rounds at concurrency ${concurrency}, ${expressionEngine} engine, both nodes on the isolate path: trigger ${oursPerSec}/s vs Webhook node ${webhookNodePerSec}/s; trigger p50 ${p50Ms} ms, p99 ${p99Ms} ms; n8n's default path ${defaultPathRatio}`,
		target: 'ratio ≥ 0.9',
		met: ratio >= 0.9,
		notes: [
			`Webhook node p50 ${latencyMs(shared.webhookNode, 50)} ms, p99 ${latencyMs(shared.webhookNode, 99)} ms`,
		],
	};
}
