import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import type { TimelineEvent } from '../simulator';
import { useE2eEnvironment } from './support/environment';
import { chain, code, phonovation, webhook } from './support/workflow-builder';

const CAMPAIGN = '/api/v2/Campaign';
const ROWS = 150;

/** Campaign requests that went out before the provider answered any, from the `from`th event on. */
function startingWindow(timeline: TimelineEvent[], from: number): number {
	const events = timeline
		.filter((e) => e.path.toLowerCase() === CAMPAIGN.toLowerCase())
		.slice(from);
	const firstAnswer = events.findIndex((e) => e.event === '-');
	return events.slice(0, firstAnswer).filter((e) => e.event === '+').length;
}

const campaignEvents = (timeline: TimelineEvent[]) =>
	timeline.filter((e) => e.path.toLowerCase() === CAMPAIGN.toLowerCase()).length;

/**
 * Held out in a real n8n: the second production execution of a published workflow (a webhook
 * handing over 150 personalised rows) starts at the pace the first one found.
 */
describe('Remembered pace in n8n', () => {
	const suite = useE2eEnvironment();

	suite.it(
		'the second execution of a published workflow starts where the first left off, and its static data is left alone',
		async (env) => {
			const path = `pace-${randomUUID()}`;
			const trigger = webhook(path);
			const rows = `const run = $input.first().json.body.run;
return Array.from({ length: ${ROWS} }, (_, i) => ({
	json: { phone: '0879' + String(run * 1000 + i).padStart(6, '0'), name: 'P' + run + '-' + i },
}));`;
			const send = phonovation('Send', {
				resource: 'campaign',
				operation: 'send',
				from: 'Phonovation',
				text: '=Hi {{ $json.name }}',
				recipients: '={{ $json.phone }}',
				options: { parallelRequests: 64 },
			});
			const { id: workflowId } = await env.importWorkflow(
				chain('Remembered pace', [trigger, code('Rows', rows), send]),
			);
			const url = env.n8n.webhookUrl(path);
			await env.client.publishWorkflow(workflowId);
			await env.client.waitForWebhook(url);
			env.sim.reset();
			try {
				const runOnce = async (run: number, delayMs: number, firstRoundMs = delayMs) => {
					const before = campaignEvents(env.sim.timeline);
					env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: firstRoundMs }, 8);
					env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: delayMs }, ROWS - 8);
					const answer = await fetch(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ run }),
					});
					expect(answer.status).toBe(200);
					const executions = await env.client.waitForExecutions(workflowId, run, 120_000);
					expect(executions.map((e) => e.status)).toEqual(Array(run).fill('success'));
					return startingWindow(env.sim.timeline, before);
				};

				// The first round answers slowly, so a busy machine still sends all 8 before an answer.
				expect(await runOnce(1, 40, 500)).toBe(8);
				// The second run's first requests wait 300 ms, so its whole starting window is out first.
				const second = await runOnce(2, 300);
				expect(second).toBeGreaterThanOrEqual(32);
				expect(second).toBeLessThanOrEqual(64);
				// Kept in n8n's memory, never in the workflow's static data: n8n saves that whole after an
				// execution in which a node changed it, which could wipe or roll back another node's state.
				const { staticData } = (await env.client.getWorkflow(workflowId)) as unknown as {
					staticData?: unknown;
				};
				expect(staticData ?? null).toBeNull();
				// Each row of both runs was processed once.
				expect(env.sim.campaigns).toHaveLength(2 * ROWS);
				expect(new Set(env.sim.campaigns.map((c) => c.body.text)).size).toBe(2 * ROWS);
			} finally {
				await env.client.unpublishWorkflow(workflowId).catch(() => undefined);
			}
		},
		240_000,
	);
});
