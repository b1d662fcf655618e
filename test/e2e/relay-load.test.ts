import { randomUUID } from 'node:crypto';

import { inboundRelay } from '../simulator/relays';
import { countExecutions, EVERY_STATUS, fetchExecutions, listExecutions, waitForExecutionCount } from './support/load-executions';
import { useE2eEnvironment } from './support/environment';
import { type OutgoingRequest, sendConcurrently, statusHistogram } from './support/load-http';
import { nodeOutput } from './support/n8n-client';
import { chain, phonovationTrigger } from './support/workflow-builder';

const RELAYS = 2_000;
const CONCURRENCY = 32;
const WEBHOOK_ID = randomUUID();
const FORM = 'application/x-www-form-urlencoded';

/** A distinct handset per relay, so every execution can be traced back to the relay that made it. */
const handset = (i: number) => `35387${String(i).padStart(7, '0')}`;

/** Issue 7, "Relay load": signed inbound relays from many connections at once, none lost. */
describe('relay load on the Phonovation Trigger in n8n', () => {
	const suite = useE2eEnvironment({
		n8nEnv: {
			// Keep every execution (no pruning) and keep n8n's log small while it is busy.
			EXECUTIONS_DATA_PRUNE: 'false',
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
			N8N_LOG_LEVEL: 'warn',
			// n8n 2.41's default 'vm' expression engine builds fresh V8 isolates for every relay
			// (the webhook phase of any trigger but n8n's own Webhook node, then the execution):
			// ~0.3 s per relay on two shared cores against ~0.05 s with 'legacy', which would
			// stretch this test past 10 minutes. The trigger evaluates no expressions, so the
			// engine does not change what it does; set the variable to 'vm' to run with the default.
			N8N_EXPRESSION_ENGINE: process.env.PHONOVATION_E2E_LOAD_EXPRESSION_ENGINE ?? 'legacy',
		},
	});

	suite.it(
		`${RELAYS} signed relays at concurrency ${CONCURRENCY} become exactly ${RELAYS} successful executions`,
		async (env) => {
			const started = Date.now();
			const workflow = await env.importWorkflow(
				chain('Replies under load', [phonovationTrigger('On Reply', { events: ['inbound', 'optOut'] }, WEBHOOK_ID)]),
			);
			const url = new URL(await env.publish(workflow, 'On Reply'));
			const context = { secret: env.sim.config.relaySecret, nowMs: env.sim.clock.now(), defaultSender: 'Phonovation' };
			const requests: OutgoingRequest[] = Array.from({ length: RELAYS }, (_, i) => ({
				path: url.pathname,
				headers: { 'content-type': FORM },
				body: inboundRelay({ from: handset(i), content: `Reply ${i}: YES` }, context).body,
			}));

			const sendStarted = Date.now();
			const answers = await sendConcurrently(url.origin, requests, CONCURRENCY);
			const sentIn = Date.now() - sendStarted;

			expect(statusHistogram(answers)).toEqual({ 200: RELAYS });

			const filter = { workflowId: workflow.id, status: ['success'] };
			const succeeded = await waitForExecutionCount(env.client, filter, RELAYS, 240_000 - (Date.now() - started));
			expect(succeeded).toBe(RELAYS);
			// Nothing still running, failed or arriving late: exactly one execution per relay.
			await new Promise((resolve) => setTimeout(resolve, 2000));
			expect(await countExecutions(env.client, { workflowId: workflow.id, status: EVERY_STATUS })).toBe(RELAYS);

			const summaries = await listExecutions(env.client, { workflowId: workflow.id, status: EVERY_STATUS });
			expect(summaries.every((e) => e.mode === 'webhook' && e.status === 'success')).toBe(true);
			const executions = await fetchExecutions(env.client, summaries.map((e) => String(e.id)));
			const items = executions.map((e) => nodeOutput(e, 'On Reply'));
			expect(items.every((list) => list.length === 1 && list[0].verified === true)).toBe(true);
			const senders = items.map((list) => String(list[0].from)).sort();
			expect(senders).toEqual(Array.from({ length: RELAYS }, (_, i) => handset(i)));

			const seconds = (ms: number) => (ms / 1000).toFixed(1);
			process.stderr.write(
				`[e2e] relay load: ${RELAYS} relays sent in ${seconds(sentIn)} s (${Math.round(RELAYS / (sentIn / 1000))}/s); ` +
					`all executions stored and checked ${seconds(Date.now() - sendStarted)} s after the first relay\n`,
			);
		},
		300_000,
	);
});
