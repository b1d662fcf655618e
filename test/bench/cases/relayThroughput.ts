import { randomUUID } from 'node:crypto';

import { startE2eEnvironment, TYPES } from '../../e2e/support/environment';
import type { N8nClient, WorkflowJson } from '../../e2e/support/n8n-client';
import { relayTimestamp } from '../../simulator/clock';
import { inboundRelay } from '../../simulator/relays';
import { postConcurrently } from '../support/load';
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

/**
 * A real n8n 2.41 with the packed package installed and two published workflows: our trigger,
 * and n8n's Webhook node (POST, respond immediately). The same signed inbound relays go to
 * each in alternating rounds at the same concurrency; every one must be answered 200.
 */
export async function relayThroughput(options: RelayThroughputOptions = {}): Promise<CaseResult> {
	const relays = options.relays ?? 200;
	const concurrency = options.concurrency ?? 8;
	const rounds = options.rounds ?? 2;
	const log = options.log ?? (() => {});
	const expressionEngine = options.expressionEngine ?? 'vm';
	log(`starting n8n (expression engine ${expressionEngine}) with the packed package (installs and builds on first use)`);
	const env = await startE2eEnvironment({ log, n8nEnv: { N8N_EXPRESSION_ENGINE: expressionEngine } });
	try {
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
		const urls = {
			ours: env.n8n.webhookUrl(`${triggerId}/phonovation`),
			webhookNode: env.n8n.webhookUrl(webhookPath),
		};

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

		const results = await alternate(rounds, {
			ours: async (r) => {
				const result = await send(urls.ours, bodies);
				log(`trigger round ${r + 1}: ${Math.round((relays / result.elapsedMs) * 1000)} relays/s`);
				return result;
			},
			webhookNode: async (r) => {
				const result = await send(urls.webhookNode, bodies);
				log(`Webhook node round ${r + 1}: ${Math.round((relays / result.elapsedMs) * 1000)} relays/s`);
				return result;
			},
		});
		const perSecond = (list: typeof results.ours) => median(list.map((r) => (relays / r.elapsedMs) * 1000));
		const oursPerSec = round(perSecond(results.ours), 1);
		const webhookNodePerSec = round(perSecond(results.webhookNode), 1);
		const ratio = round(perSecond(results.ours) / perSecond(results.webhookNode), 2);
		const latencies = (list: typeof results.ours) => list.flatMap((r) => r.latenciesMs);
		const p50Ms = round(percentile(latencies(results.ours), 50), 1);
		const p99Ms = round(percentile(latencies(results.ours), 99), 1);
		return {
			line: { name: 'relay-throughput', expressionEngine, relays, concurrency, oursPerSec, webhookNodePerSec, ratio, p50Ms, p99Ms },
			summary: `${relays} signed relays × ${rounds} rounds at concurrency ${concurrency}, ${expressionEngine} engine: trigger ${oursPerSec}/s vs Webhook node ${webhookNodePerSec}/s; trigger p50 ${p50Ms} ms, p99 ${p99Ms} ms`,
			target: 'ratio ≥ 0.9',
			met: ratio >= 0.9,
			notes: [
				`Webhook node p50 ${round(percentile(latencies(results.webhookNode), 50), 1)} ms, p99 ${round(percentile(latencies(results.webhookNode), 99), 1)} ms`,
			],
		};
	} finally {
		await env.stop();
	}
}
