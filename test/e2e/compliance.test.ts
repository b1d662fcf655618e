import { DateTime } from 'luxon';

import { useE2eEnvironment } from './support/environment';
import { nodeOutput } from './support/n8n-client';
import { chain, manualTrigger, phonovation } from './support/workflow-builder';

type Json = Record<string, any>;

/** Quiet hours in a real n8n, whose instance runs in UTC and whose workflow is set to Dublin time. */
/** Quiet Hours from an hour ago to an hour from now in Dublin: the 23:30 case with the real clock. */
function windowAroundDublinNow() {
	const now = DateTime.now().setZone('Europe/Dublin');
	const end = now.plus({ hours: 1 }).startOf('minute');
	return {
		quietHours: `${now.minus({ hours: 1 }).toFormat('HH:mm')}-${end.toFormat('HH:mm')}`,
		end,
	};
}

describe('quiet hours in n8n', () => {
	const suite = useE2eEnvironment();

	suite.it(
		"a Send inside the workflow zone's quiet hours is posted as a campaign scheduled for their end, in UTC",
		async (env) => {
			const { quietHours, end } = windowAroundDublinNow();
			const send = phonovation('Send', {
				resource: 'campaign',
				operation: 'send',
				from: 'Phonovation',
				text: 'Spring sale: 20% off',
				recipients: '0871234567',
				options: { quietHours, optOutText: 'Text STOP to 50123 to opt out' },
			});
			const workflow = await env.importWorkflow(
				chain('Quiet hours', [manualTrigger(), send], { timezone: 'Europe/Dublin' }),
			);
			env.sim.reset();
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');

			expect(execution.status).toBe('success');
			const sendAt = end.toUTC().toFormat("yyyy-MM-dd'T'HH:mm'Z'");
			expect(env.sim.campaigns.map((c) => [c.body.sendAt, c.body.text, c.status])).toEqual([
				[sendAt, 'Spring sale: 20% off\nText STOP to 50123 to opt out', 'scheduled'],
			]);
			const [out] = nodeOutput(execution, 'Send') as Json[];
			expect(out.campaign.sendAt).toBe(sendAt);
			expect(out.warnings).toEqual([
				expect.stringMatching(
					new RegExp(
						`^Quiet Hours ${quietHours} in the recipients' time zones \\(Europe/Dublin\\): Sending now .*\\(sendAt ${sendAt}\\)$`,
					),
				),
			]);
		},
	);

	suite.it(
		'with no Quiet Hours Time Zone, on an n8n in New York an Irish number is judged in Dublin time',
		async (env) => {
			// Quiet now in Dublin; the same clock times in New York are five hours later, outside them.
			const { quietHours, end } = windowAroundDublinNow();
			const send = phonovation('Send', {
				resource: 'campaign',
				operation: 'send',
				from: 'Phonovation',
				text: 'Your table is ready',
				recipients: '0871234567',
				options: { quietHours, messageType: 'transactional' },
			});
			const workflow = await env.importWorkflow(
				chain('Quiet hours, New York n8n', [manualTrigger(), send], {
					timezone: 'America/New_York',
				}),
			);
			env.sim.reset();
			const execution = await env.client.runAndWait(workflow.id, 'Manual Trigger');
			expect(execution.status).toBe('success');
			const sendAt = end.toUTC().toFormat("yyyy-MM-dd'T'HH:mm'Z'");
			expect(env.sim.campaigns.map((c) => c.body.sendAt)).toEqual([sendAt]);
			const [out] = nodeOutput(execution, 'Send') as Json[];
			expect(out.campaign.quietHours).toBe(
				`${quietHours} in the recipients' time zones (Europe/Dublin)`,
			);
		},
	);
});
