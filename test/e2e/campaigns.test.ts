import { TYPES, useE2eEnvironment } from './support/environment';
import { nodeError, nodeOutput } from './support/n8n-client';
import { chain, code, manualTrigger, phonovation } from './support/workflow-builder';

/** Sender IDs only this simulator knows, so nothing below can pass on hard-coded defaults. */
const SENDERS = [
	{ name: 'AcmeClinic', type: 0 as const },
	{ name: 'AcmeGlobal', type: 1 as const },
	{ name: '353850000001', type: 2 as const },
];

const itemsCode = (items: unknown[]) =>
	`return ${JSON.stringify(items)}.map((json) => ({ json }));`;

const requestLog = (requests: Array<{ method: string; path: string; status: number }>) =>
	requests.map((r) => `${r.method} ${r.path} ${r.status}`);

/** Scenarios 1, 2, 3 and 6: the action node in a real n8n against the simulator. */
describe('Phonovation action node in n8n', () => {
	const suite = useE2eEnvironment({ simulator: { senders: SENDERS } });

	suite.it(
		'scheduled campaign: three recipients with notify IDs become one campaign with a UTC sendAt',
		async (env) => {
			const workflow = await env.importWorkflow(
				chain(
					'Scheduled appointment reminders',
					[
						manualTrigger(),
						code(
							'Patients',
							itemsCode([
								{ phone: '0871234567', ref: 'appt-1001' },
								{ phone: '+44 7911 123456', ref: 'appt-1002' },
								{ phone: '353861234567', ref: 'appt-1003' },
							]),
						),
						phonovation('Schedule Reminder', {
							resource: 'campaign',
							operation: 'schedule',
							from: 'AcmeClinic',
							text: 'Reminder: your appointment is on Monday at 10:00. Reply YES to confirm.',
							recipients: '={{ $json.phone }}',
							// Wall-clock time in the workflow's zone (Irish summer time, UTC+1).
							sendAt: '2030-06-03T09:30:00',
							options: { campaignName: 'Reminders', notifyId: '={{ $json.ref }}' },
						}),
					],
					{ timezone: 'Europe/Dublin' },
				),
			);
			env.sim.reset();

			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');

			expect(execution.status).toBe('success');
			expect(env.sim.campaigns).toHaveLength(1);
			expect(env.sim.count('POST', '/api/v2/Campaign')).toBe(1);
			const [campaign] = env.sim.campaigns;
			expect(campaign.body).toEqual({
				from: 'AcmeClinic',
				text: 'Reminder: your appointment is on Monday at 10:00. Reply YES to confirm.',
				campaignName: 'Reminders',
				sendAt: '2030-06-03T08:30Z',
				recipientInfo: [
					{ msisdn: '353871234567', notifyId: 'appt-1001' },
					{ msisdn: '447911123456', notifyId: 'appt-1002' },
					{ msisdn: '353861234567', notifyId: 'appt-1003' },
				],
			});
			expect(campaign.status).toBe('scheduled');

			const output = nodeOutput(execution, 'Schedule Reminder');
			expect(output).toHaveLength(3);
			for (const item of output) {
				expect(item).toMatchObject({
					operation: 'schedule',
					success: true,
					campaign: { from: 'AcmeClinic', sendAt: '2030-06-03T08:30Z', recipients: 3 },
				});
			}
		},
	);

	suite.it(
		'bulk: 10,000 items from a Code node go out as one campaign request after one login',
		async (env) => {
			const credential = await env.createCredential('Phonovation (bulk run)');
			const workflow = await env.importWorkflow(
				chain('Bulk announcement', [
					manualTrigger(),
					code(
						'Ten Thousand Customers',
						'return Array.from({ length: 10000 }, (_, i) => ({ json: { phone: "0871" + String(i).padStart(6, "0") } }));',
					),
					phonovation('Send Announcement', {
						resource: 'campaign',
						operation: 'send',
						from: 'AcmeClinic',
						text: 'The clinic is closed on Friday.',
						recipients: '={{ $json.phone }}',
					}),
				]),
				credential,
			);
			env.sim.reset();

			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger', 180_000);

			expect(execution.status).toBe('success');
			expect(env.sim.count('POST', '/api/v2/Campaign')).toBe(1);
			expect(env.sim.count('POST', '/token')).toBe(1);
			expect(env.sim.campaigns).toHaveLength(1);
			const recipients = env.sim.campaigns[0].body.recipientInfo as Array<{ msisdn: string }>;
			expect(recipients).toHaveLength(10_000);
			expect(new Set(recipients.map((r) => r.msisdn)).size).toBe(10_000);
			expect(recipients[0]).toEqual({ msisdn: '353871000000' });
			expect(recipients[9_999]).toEqual({ msisdn: '353871009999' });

			const output = nodeOutput(execution, 'Send Announcement');
			expect(output).toHaveLength(10_000);
			expect(output[0]).toMatchObject({
				success: true,
				campaign: { recipients: 10_000, requests: 1 },
			});
		},
		300_000,
	);

	suite.it(
		'token expiry in a long run: after 120 s the next execution logs in again once and succeeds',
		async (env) => {
			const credential = await env.createCredential('Phonovation (long run)');
			const workflow = await env.importWorkflow(
				chain('Hourly status text', [
					manualTrigger(),
					code('On Call', itemsCode([{ phone: '0851112222' }])),
					phonovation('Send Status', {
						resource: 'campaign',
						operation: 'send',
						from: 'AcmeClinic',
						text: 'Status: all systems normal.',
						recipients: '={{ $json.phone }}',
					}),
				]),
				credential,
			);
			env.sim.reset();

			const first = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(first.status).toBe('success');
			expect(env.sim.count('POST', '/token')).toBe(1);
			const beforeExpiry = env.sim.requests.length;

			env.sim.clock.advance(121);
			const second = await env.client.runAndWait(workflow.id, 'Manual Trigger');

			expect(second.status).toBe('success');
			expect(nodeOutput(second, 'Send Status')[0]).toMatchObject({ success: true });
			expect(env.sim.count('POST', '/token')).toBe(2);
			const secondRun = requestLog(env.sim.requests.slice(beforeExpiry));
			// The stored token is refused once, n8n logs in again and repeats that request.
			expect(secondRun.filter((r) => r.endsWith(' 401'))).toHaveLength(1);
			expect(secondRun.indexOf('POST /token 200')).toBe(
				secondRun.findIndex((r) => r.endsWith(' 401')) + 1,
			);
			expect(secondRun.at(-1)).toBe('POST /api/v2/Campaign 200');
			expect(env.sim.campaigns).toHaveLength(2);

			// n8n stored the new token: a third run right away needs no login.
			const third = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(third.status).toBe('success');
			expect(env.sim.count('POST', '/token')).toBe(2);
		},
	);

	suite.it(
		'a sender ID the account does not have fails the execution with the approved list, sending nothing',
		async (env) => {
			const workflow = await env.importWorkflow(
				chain('Wrong sender', [
					manualTrigger(),
					code('One Customer', itemsCode([{ phone: '0851112222' }])),
					phonovation('Send With Unknown Sender', {
						resource: 'campaign',
						operation: 'send',
						from: 'NotMine',
						text: 'Hello',
						recipients: '={{ $json.phone }}',
					}),
				]),
			);
			env.sim.reset();

			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');

			expect(execution.status).toBe('error');
			const error = nodeError(execution, 'Send With Unknown Sender');
			expect(error?.message).toContain('"NotMine" is not approved');
			expect(error?.message).toContain('AcmeClinic');
			expect(env.sim.count('POST', '/api/v2/Campaign')).toBe(0);
		},
	);

	suite.it(
		'sender dropdown: n8n’s load-options endpoint lists the simulator account’s senders',
		async (env) => {
			const options = await env.client.loadOptions({
				nodeType: TYPES.action,
				version: 1,
				methodName: 'getSenders',
				path: 'from',
				currentNodeParameters: { resource: 'campaign', operation: 'send' },
				credentials: { [TYPES.credential]: { id: env.credential.id, name: env.credential.name } },
			});

			expect(options.map((o) => o.value).sort()).toEqual(SENDERS.map((s) => s.name).sort());
			const global = options.find((o) => o.value === 'AcmeGlobal');
			expect(global?.name).toMatch(/^AcmeGlobal \(.*Irish.*\)$/);
		},
	);
});
