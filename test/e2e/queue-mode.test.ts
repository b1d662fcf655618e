import { fetch } from 'undici';

import { loadWorkflow, TYPES } from './support/environment';
import { nodeOutput } from './support/n8n-client';
import { useQueueModeEnvironment } from './support/queue-environment';
import { chain, code, manualTrigger, phonovation } from './support/workflow-builder';

const RECIPIENTS = 1_000;

/** The worker's log line for an execution it ran (n8n's scaling logger, level info). */
const ranOnWorker = (log: string, executionId: string) => new RegExp(`Worker started execution ${executionId}\\b`).test(log);

/**
 * n8n scaled out: main (editor and API), a worker running every execution and a webhook
 * process taking production webhooks, sharing one database and one Redis. The credential's
 * token is stored in that database, so one login serves all processes.
 */
describe('Phonovation nodes in n8n queue mode (main + worker + webhook process)', () => {
	const suite = useQueueModeEnvironment();
	let repliesUrl: string;
	let repliesWorkflowId: string;

	beforeAll(async () => {
		const env = suite.env();
		await env.client.createDataTable('opt-outs', [
			{ name: 'phone', type: 'string' },
			{ name: 'optedOutAt', type: 'string' },
		]);
		const replies = await env.importWorkflow(loadWorkflow('reply-auto-responder.json'));
		repliesUrl = await env.publish(replies, 'On Reply or Opt-Out');
		repliesWorkflowId = replies.id;
		env.sim.reset();
		// Token expiry has its own scenario (campaigns.test.ts); here a slow machine must not end
		// the 120 s token lifetime mid-run and force a second, legitimate login.
		env.sim.clock.freeze();
	}, 120_000);

	suite.it('all three processes are up and only the webhook process serves production webhooks', async ({ n8n }) => {
		for (const member of [n8n.main, n8n.worker, n8n.webhook]) {
			expect({ role: member.role, status: (await fetch(`${member.url}/healthz/readiness`)).status }).toEqual({
				role: member.role,
				status: 200,
			});
		}
		const onMain = await fetch(repliesUrl.replace(n8n.webhook.url, n8n.main.url), { method: 'POST' });
		expect(onMain.status).toBe(404);
	});

	const bulkTitle = `bulk send: ${RECIPIENTS} items run on the worker as one campaign request after one login`;
	suite.it(bulkTitle, async ({ client, importWorkflow, n8n, sim }) => {
		const workflow = await importWorkflow(
			chain('Bulk announcement (queue mode)', [
				manualTrigger(),
				code(
					'Customers',
					`return Array.from({ length: ${RECIPIENTS} }, (_, i) => ({ json: { phone: "0872" + String(i).padStart(6, "0") } }));`,
				),
				phonovation('Send Announcement', {
					resource: 'campaign',
					operation: 'send',
					from: 'Phonovation',
					text: 'The clinic is closed on Friday.',
					recipients: '={{ $json.phone }}',
				}),
			]),
		);

		const execution = await client.runAndWait(workflow.id, 'Manual Trigger', 240_000);

		expect(execution.status).toBe('success');
		expect(ranOnWorker(n8n.worker.log(), execution.id)).toBe(true);
		expect(sim.count('POST', '/api/v2/Campaign')).toBe(1);
		expect(sim.campaigns).toHaveLength(1);
		const sentTo = (sim.campaigns[0].body.recipientInfo as Array<{ msisdn: string }>).map((r) => r.msisdn);
		expect(new Set(sentTo).size).toBe(RECIPIENTS);
		expect(sentTo[RECIPIENTS - 1]).toBe(`353872${String(RECIPIENTS - 1).padStart(6, '0')}`);
		const output = nodeOutput(execution, 'Send Announcement');
		expect(output).toHaveLength(RECIPIENTS);
		expect(output[0]).toMatchObject({ success: true, campaign: { recipients: RECIPIENTS, requests: 1 } });
		expect(sim.count('POST', '/token')).toBe(1);
	}, 300_000);

	suite.it('a signed reply to the webhook process runs the auto-responder on the worker with the stored token', async ({ client, n8n, sim }) => {
		const relay = await sim.sendInbound({ url: repliesUrl, from: '353871234599', content: 'YES please', keyphrase: '*' });
		expect(relay.status).toBe(200);

		const [execution] = await client.waitForExecutions(repliesWorkflowId, 1, 120_000);
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		expect(ranOnWorker(n8n.worker.log(), execution.id)).toBe(true);
		expect(nodeOutput(execution, 'Confirm Appointment')).toEqual([expect.objectContaining({ success: true })]);
		expect(sim.campaigns).toHaveLength(2);
		expect(sim.campaigns[1].body).toMatchObject({
			text: 'Thanks, your appointment is confirmed. See you then!',
			recipientInfo: [{ msisdn: '353871234599' }],
		});
		expect(sim.count('POST', '/token')).toBe(1);
	});

	suite.it('main reuses the same stored token for the sender dropdown: one login across the whole run', async ({ client, credential, sim }) => {
		const senders = await client.loadOptions({
			nodeType: TYPES.action,
			version: 1,
			methodName: 'getSenders',
			path: 'from',
			currentNodeParameters: { resource: 'campaign', operation: 'send' },
			credentials: { [TYPES.credential]: { id: credential.id, name: credential.name } },
		});
		expect(senders.map((s) => s.value)).toContain('Phonovation');
		// Every API request of the run carried a token the provider accepted.
		expect(sim.requests.filter((r) => r.status !== 200)).toEqual([]);
		expect(sim.count('POST', '/token')).toBe(1);
	});
});
