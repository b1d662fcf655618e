import { randomUUID } from 'node:crypto';

import { inboundRelay } from '../simulator/relays';
import { executionsUpToMarker, fetchExecutions, newestExecution } from './support/load-executions';
import { useE2eEnvironment } from './support/environment';
import { type OutgoingRequest, sendConcurrently, statusHistogram } from './support/load-http';
import { LAZY_ISOLATES_N8N_ENV } from './support/load-settings';
import { nodeOutput } from './support/n8n-client';
import { chain, phonovationTrigger } from './support/workflow-builder';

/**
 * 500 relays keep this test to about a minute while 32 connections still overlap hundreds of
 * times. PHONOVATION_E2E_LOAD_RELAYS raises the count on a bigger machine.
 */
const RELAYS = Number(process.env.PHONOVATION_E2E_LOAD_RELAYS ?? 500);
const CONCURRENCY = 32;
const WEBHOOK_ID = randomUUID();
const FORM = 'application/x-www-form-urlencoded';

/** A distinct handset per relay, so every execution can be traced back to the relay that made it. */
const handset = (i: number) => `35387${String(i).padStart(7, '0')}`;
/** Sent alone after every other relay was answered; its execution must be the newest. */
const FINAL = handset(9_999_999);

/** Issue 7, "Relay load": signed inbound relays from many connections at once, none lost. */
describe('relay load on the Phonovation Trigger in n8n', () => {
	const suite = useE2eEnvironment({
		n8nEnv: {
			// Keep every execution (no pruning) and keep n8n's log small while it is busy.
			EXECUTIONS_DATA_PRUNE: 'false',
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
			N8N_LOG_LEVEL: 'warn',
			...LAZY_ISOLATES_N8N_ENV,
			// n8n's default engine unless asked otherwise ('legacy' is about six times faster per relay).
			...(process.env.PHONOVATION_E2E_LOAD_EXPRESSION_ENGINE
				? { N8N_EXPRESSION_ENGINE: process.env.PHONOVATION_E2E_LOAD_EXPRESSION_ENGINE }
				: {}),
		},
	});

	suite.it(
		`${RELAYS} signed relays at concurrency ${CONCURRENCY} become exactly ${RELAYS} successful executions`,
		async (env) => {
			const workflow = await env.importWorkflow(
				chain('Replies under load', [
					phonovationTrigger('On Reply', { events: ['inbound', 'optOut'] }, WEBHOOK_ID),
				]),
			);
			const url = new URL(await env.publish(workflow, 'On Reply'));
			const context = {
				secret: env.sim.config.relaySecret,
				nowMs: env.sim.clock.now(),
				defaultSender: 'Phonovation',
			};
			const relay = (from: string, content: string): OutgoingRequest => ({
				path: url.pathname,
				headers: { 'content-type': FORM },
				body: inboundRelay({ from, content }, context).body,
			});
			const requests = Array.from({ length: RELAYS }, (_, i) =>
				relay(handset(i), `Reply ${i}: YES`),
			);

			const answers = await sendConcurrently(url.origin, requests, CONCURRENCY);
			expect(statusHistogram(answers)).toEqual({ 200: RELAYS });
			const [final] = await sendConcurrently(url.origin, [relay(FINAL, 'Last reply')], 1);
			expect(final.status).toBe(200);

			const summaries = await executionsUpToMarker(env.client, workflow.id, RELAYS + 1, {
				timeoutMs: 480_000,
			});
			// Nothing failed, still running or duplicated: exactly one execution per relay.
			expect(summaries).toHaveLength(RELAYS + 1);
			expect(summaries.every((e) => e.mode === 'webhook' && e.status === 'success')).toBe(true);
			const executions = await fetchExecutions(
				env.client,
				summaries.map((e) => String(e.id)),
			);
			const items = executions.map((e) => nodeOutput(e, 'On Reply'));
			expect(items.every((list) => list.length === 1 && list[0].verified === true)).toBe(true);
			const senders = items.map((list) => String(list[0].from)).sort();
			expect(senders).toEqual([...Array.from({ length: RELAYS }, (_, i) => handset(i)), FINAL]);
			// Nothing was started after the final relay either.
			const finalExecution = executions.find((e) => nodeOutput(e, 'On Reply')[0]?.from === FINAL);
			expect(newestExecution(summaries)?.id).toBe(finalExecution?.id);
		},
		600_000,
	);
});
