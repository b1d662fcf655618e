import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import { deliveryReceipt } from '../simulator/relays';
import { useE2eEnvironment } from './support/environment';
import { nodeOutput } from './support/n8n-client';
import {
	chain,
	code,
	manualTrigger,
	phonovation,
	phonovationTrigger,
} from './support/workflow-builder';

const REPLIES_WEBHOOK_ID = randomUUID();
const EVENTS_WEBHOOK_ID = randomUUID();
const URL_TOKEN = 'e2e-url-token-5521';

const webhookUrl = (n8nUrl: string, webhookId: string) =>
	`${n8nUrl}/webhook/${webhookId}/phonovation`;

/** Scenarios 4 and 5: relays from the simulator reach published trigger workflows in n8n. */
describe('Phonovation Trigger in n8n', () => {
	const suite = useE2eEnvironment({
		// Receipts and processing results go where the provider's support would point them.
		simulator: (n8nUrl) => ({
			relayUrl: `${webhookUrl(n8nUrl, EVENTS_WEBHOOK_ID)}?token=${URL_TOKEN}`,
		}),
	});
	let repliesWorkflowId: string;
	let eventsWorkflowId: string;

	beforeAll(async () => {
		const env = suite.env();
		const replies = await env.importWorkflow(
			chain('Replies and opt-outs', [
				phonovationTrigger('On Reply', { events: ['inbound', 'optOut'] }, REPLIES_WEBHOOK_ID),
			]),
		);
		// The URL token is kept, encrypted, in the credential of the trigger that takes processing results.
		const withToken = await env.createCredential('Phonovation (with URL token)', {
			urlToken: URL_TOKEN,
		});
		const events = await env.importWorkflow(
			chain('Delivery events', [
				phonovationTrigger(
					'On Delivery Event',
					{ events: ['deliveryReceipt', 'processingResult'], options: { includeRaw: true } },
					EVENTS_WEBHOOK_ID,
				),
			]),
			withToken,
		);
		await env.publish(replies, 'On Reply');
		await env.publish(events, 'On Delivery Event');
		repliesWorkflowId = replies.id;
		eventsWorkflowId = events.id;
	}, 60_000);

	suite.it(
		'a signed inbound reply starts one execution whose item has the parsed fields',
		async (env) => {
			const relay = await env.sim.sendInbound({
				url: webhookUrl(env.n8n.url, REPLIES_WEBHOOK_ID),
				from: '353871234567',
				to: '353877777777',
				content: 'YES please',
				keyphrase: 'YES',
				notifyId: 'appt-1001',
			});
			expect(relay.status).toBe(200);

			const [execution] = await env.client.waitForExecutions(repliesWorkflowId, 1);
			expect(execution.mode).toBe('webhook');
			expect(execution.status).toBe('success');
			expect(nodeOutput(execution, 'On Reply')).toEqual([
				expect.objectContaining({
					event: 'inbound',
					from: '353871234567',
					text: 'YES please',
					keyword: 'YES',
					sessionId: 'sms:353871234567',
					verified: true,
					unverified: expect.objectContaining({
						to: '353877777777',
						notifyId: 'appt-1001',
						keyphrase: 'YES',
					}),
				}),
			]);
		},
	);

	suite.it('a tampered relay is refused with 401 and starts no execution', async (env) => {
		const before = (await env.client.executions(repliesWorkflowId)).length;
		const url = webhookUrl(env.n8n.url, REPLIES_WEBHOOK_ID);
		const relay = await env.sim.sendInbound({
			url,
			content: 'Send me everything',
			wrongSignature: true,
		});
		expect(relay).toMatchObject({ status: 401, body: 'Unauthorized' });
		// The genuine relay sent after it is the only new execution once it is stored.
		expect((await env.sim.sendInbound({ url, content: 'Only me' })).status).toBe(200);
		const executions = await env.client.waitForExecutions(repliesWorkflowId, before + 1);
		expect(executions).toHaveLength(before + 1);
		expect(nodeOutput(executions.at(-1)!, 'On Reply')).toEqual([
			expect.objectContaining({ text: 'Only me' }),
		]);
	});

	suite.it('an opt-out starts an execution with an optOut item', async (env) => {
		const before = (await env.client.executions(repliesWorkflowId)).length;
		const relay = await env.sim.sendOptOut({
			url: webhookUrl(env.n8n.url, REPLIES_WEBHOOK_ID),
			from: '353861234567',
		});
		expect(relay.status).toBe(200);

		const executions = await env.client.waitForExecutions(repliesWorkflowId, before + 1);
		expect(nodeOutput(executions.at(-1)!, 'On Reply')).toEqual([
			expect.objectContaining({
				event: 'optOut',
				from: '353861234567',
				optOutKeyword: 'STOP',
				verified: true,
				unverified: expect.objectContaining({ to: '50123', via: 'shortcode' }),
			}),
		]);
	});

	suite.it(
		'delivery receipts and processing results of a delivered campaign reach their workflow',
		async (env) => {
			const campaign = await env.importWorkflow(
				chain('Schedule for delivery', [
					manualTrigger(),
					code(
						'Two Customers',
						'return [{ json: { phone: "0871230001", ref: "order-1" } }, { json: { phone: "0871230002", ref: "order-2" } }];',
					),
					phonovation('Schedule', {
						resource: 'campaign',
						operation: 'schedule',
						from: 'Phonovation',
						text: 'Your order ships tomorrow.',
						recipients: '={{ $json.phone }}',
						sendAt: '2030-01-15T08:00:00Z',
						options: { notifyId: '={{ $json.ref }}' },
					}),
				]),
			);
			env.sim.reset();
			expect((await env.client.runAndWait(campaign.id, 'Manual Trigger')).status).toBe('success');

			const delivery = await env.sim.deliverScheduled();
			expect(delivery.relays.map((r) => r.status)).toEqual([200, 200, 200, 200]);

			const executions = await env.client.waitForExecutions(eventsWorkflowId, 4);
			const items = executions.flatMap((e) => nodeOutput(e, 'On Delivery Event'));
			expect(items).toHaveLength(4);
			expect(items.filter((i) => i.event === 'processingResult')).toEqual(
				expect.arrayContaining([
					expect.objectContaining({ status: 'MESSAGE_SUCCESS', notifyId: 'order-1' }),
					expect.objectContaining({ status: 'MESSAGE_SUCCESS', notifyId: 'order-2' }),
				]),
			);
			expect(items.filter((i) => i.event === 'deliveryReceipt')).toEqual(
				expect.arrayContaining([
					expect.objectContaining({
						notifyId: 'order-1',
						delivered: true,
						verified: true,
						unverified: expect.objectContaining({ to: '353871230001' }),
					}),
					expect.objectContaining({
						notifyId: 'order-2',
						delivered: true,
						verified: true,
						unverified: expect.objectContaining({ to: '353871230002' }),
					}),
				]),
			);
		},
	);

	suite.it('a processing result without the URL token is refused with 401', async (env) => {
		const before = (await env.client.executions(eventsWorkflowId)).length;
		const url = webhookUrl(env.n8n.url, EVENTS_WEBHOOK_ID);
		const relay = await env.sim.sendProcessingResult({
			url,
			status: 'MESSAGE_SUCCESS',
			notifyId: 'forged',
		});
		expect(relay).toMatchObject({ status: 401, body: 'Unauthorized' });
		const genuine = await env.sim.sendProcessingResult({
			url: `${url}?token=${URL_TOKEN}`,
			notifyId: 'genuine',
		});
		expect(genuine.status).toBe(200);
		const executions = await env.client.waitForExecutions(eventsWorkflowId, before + 1);
		expect(executions).toHaveLength(before + 1);
		expect(nodeOutput(executions.at(-1)!, 'On Delivery Event')).toEqual([
			expect.objectContaining({ notifyId: 'genuine' }),
		]);
	});

	suite.it(
		'a processing result sent as application/cloudevents+json is read like JSON',
		async (env) => {
			const before = (await env.client.executions(eventsWorkflowId)).length;
			const response = await fetch(
				`${webhookUrl(env.n8n.url, EVENTS_WEBHOOK_ID)}?token=${URL_TOKEN}`,
				{
					method: 'POST',
					headers: { 'content-type': 'application/cloudevents+json' },
					body: JSON.stringify({
						Status: 'MESSAGE_SUCCESS',
						NotifyId: 'cloud-1',
						FinishedAt: '2026-04-09T14:39:40.69Z',
					}),
				},
			);
			expect(response.status).toBe(200);
			const executions = await env.client.waitForExecutions(eventsWorkflowId, before + 1);
			expect(nodeOutput(executions.at(-1)!, 'On Delivery Event')).toEqual([
				expect.objectContaining({
					event: 'processingResult',
					notifyId: 'cloud-1',
					finishedAt: '2026-04-09T14:39:40.690Z',
				}),
			]);
		},
	);

	suite.it('prototype keys of a genuine receipt reach the workflow as raw data', async (env) => {
		const before = (await env.client.executions(eventsWorkflowId)).length;
		const receipt = deliveryReceipt(
			{ notifyId: 'proto-1', success: true },
			{
				secret: env.sim.config.relaySecret,
				nowMs: env.sim.clock.now(),
				defaultSender: 'Phonovation',
			},
		);
		const body = `${receipt.body}&__proto__=polluted&constructor=c&toString=t`;
		const response = await fetch(webhookUrl(env.n8n.url, EVENTS_WEBHOOK_ID), {
			method: 'POST',
			headers: { 'content-type': receipt.contentType },
			body,
		});
		expect(response.status).toBe(200);
		const executions = await env.client.waitForExecutions(eventsWorkflowId, before + 1);
		const [item] = nodeOutput(executions.at(-1)!, 'On Delivery Event');
		expect(item).toMatchObject({ event: 'deliveryReceipt', notifyId: 'proto-1', verified: true });
		const raw = item.raw as Record<string, unknown>;
		expect(raw).toMatchObject({ 'SMS-NotifyId': 'proto-1', toString: 't' });
		expect(Object.keys(raw)).not.toContain('SMS-Verify');
		// Whatever n8n keeps of __proto__ and constructor, it keeps as data: no function, no prototype change.
		expect(typeof raw.constructor === 'function' ? 'function' : 'data').toBe('data');
		expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
	});

	suite.it('the URL token still works from the node option it used to live in', async (env) => {
		const webhookId = randomUUID();
		const legacy = await env.importWorkflow(
			chain('Processing results (old token option)', [
				phonovationTrigger(
					'On Result',
					{ events: ['processingResult'], options: { token: 'old-option-token' } },
					webhookId,
				),
			]),
		);
		await env.publish(legacy, 'On Result');
		const url = webhookUrl(env.n8n.url, webhookId);
		expect(
			(await env.sim.sendProcessingResult({ url: `${url}?token=wrong`, notifyId: 'nope' })).status,
		).toBe(401);
		const accepted = await env.sim.sendProcessingResult({
			url: `${url}?token=old-option-token`,
			notifyId: 'legacy-1',
		});
		expect(accepted.status).toBe(200);
		const executions = await env.client.waitForExecutions(legacy.id, 1);
		expect(executions).toHaveLength(1);
		expect(nodeOutput(executions[0], 'On Result')).toEqual([
			expect.objectContaining({ notifyId: 'legacy-1' }),
		]);
	});
});
