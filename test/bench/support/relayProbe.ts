/**
 * Per-relay accounting of one contender of `relay-throughput` at a time, in a real n8n 2.41:
 * starts n8n with a probe preloaded (relayProbeHook.cjs, or RELAY_PROBE: a CommonJS file given
 * by path; it counts isolate acquisitions, credential loads, webhook calls), publishes the three
 * contenders, then sends RELAY_PROBE_RELAYS signed relays to each in turn and prints what the
 * probe counted for each, divided by the relay count. With RELAY_PROBE_CPU_PROF set to a folder,
 * a CPU profile of n8n's main process during each contender's relays is written there.
 * Not part of `npm run bench`; run it by hand: `npx tsx test/bench/support/relayProbe.ts`
 * (RELAY_PROBE_RELAYS, RELAY_PROBE_CONCURRENCY, RELAY_PROBE_ONLY=ours,webhookNode,headerAuth,
 * RELAY_PROBE_SKIP=true for n8n's isolate skip).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { startE2eEnvironment } from '../../e2e/support/environment';
import {
	FORM,
	HEADERS,
	publishContenders,
	signedRelays,
	untilIdle,
} from '../cases/relayThroughput';
import { postConcurrently } from './load';

type Counters = Record<string, { n: number; ms: number }>;

async function main(): Promise<void> {
	const relays = Number(process.env.RELAY_PROBE_RELAYS ?? 200);
	const concurrency = Number(process.env.RELAY_PROBE_CONCURRENCY ?? 8);
	const out = `/tmp/relay-probe-${process.pid}.json`;
	const nodeOptions = [
		`--require ${process.env.RELAY_PROBE ?? path.join(__dirname, 'relayProbeHook.cjs')}`,
	];
	const only = process.env.RELAY_PROBE_ONLY?.split(',');
	const env = await startE2eEnvironment({
		log: (line) => console.error(line),
		n8nEnv: {
			N8N_EXPRESSION_ENGINE: process.env.RELAY_PROBE_ENGINE ?? 'vm',
			N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP: process.env.RELAY_PROBE_SKIP ?? 'false',
			NODE_OPTIONS: nodeOptions.join(' '),
			RELAY_PROBE_OUT: out,
			RELAY_PROBE_CPU_PROF: process.env.RELAY_PROBE_CPU_PROF ?? '',
		},
	});
	const probeFiles = () =>
		readdirSync('/tmp').filter(
			(f) => f.startsWith(`relay-probe-${process.pid}.json.`) && /\.\d+$/.test(f),
		);
	/**
	 * Has every probed process write its counters; with RELAY_PROBE_CPU_PROF, the first signal also
	 * starts a CPU profile and the second writes it.
	 */
	const signal = async () => {
		for (const file of probeFiles()) process.kill(Number(file.split('.').pop()), 'SIGUSR2');
		await new Promise((resolve) => setTimeout(resolve, 1_000));
	};
	// One file per process that loaded the probe (n8n and its task runner), summed.
	const read = (): Counters => {
		const sum: Counters = {};
		for (const file of probeFiles()) {
			for (const [key, { n, ms }] of Object.entries(
				JSON.parse(readFileSync(`/tmp/${file}`, 'utf8')) as Counters,
			)) {
				const c = (sum[key] ??= { n: 0, ms: 0 });
				c.n += n;
				c.ms += ms;
			}
		}
		return sum;
	};
	const settle = async () => {
		await untilIdle(env.client);
		await new Promise((resolve) => setTimeout(resolve, 1_500));
	};
	try {
		const urls = await publishContenders(env);
		const bodies = signedRelays(relays, env.sim.config.relaySecret);
		const send = (url: string, list: string[], c = concurrency) =>
			postConcurrently({ url, contentType: FORM, bodies: list, concurrency: c, headers: HEADERS });
		for (const url of Object.values(urls)) {
			for (;;) {
				const r = await send(url, bodies.slice(0, 1), 1);
				if (r.failures.length === 0) break;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			await send(url, bodies.slice(0, 30));
		}
		for (const [name, url] of Object.entries(urls)) {
			if (only && !only.includes(name)) continue;
			await settle();
			await signal();
			const before = read();
			const result = await send(url, bodies);
			await settle();
			await signal();
			const after = read();
			console.log(
				`\n== ${name}: ${Math.round((relays / result.elapsedMs) * 1000 * 10) / 10} relays/s, ${result.failures.length} failures`,
			);
			for (const [key, value] of Object.entries(after).sort()) {
				const n = value.n - (before[key]?.n ?? 0);
				if (n === 0) continue;
				const ms = value.ms - (before[key]?.ms ?? 0);
				console.log(
					`  ${key.padEnd(70)} ${(n / relays).toFixed(2)} calls/relay  ${(ms / relays).toFixed(2)} ms/relay (wall, incl. awaits)`,
				);
			}
		}
	} finally {
		await env.stop();
	}
}

void main();
