import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import { openToken } from '../../nodes/Phonovation/resources/conversation/proof/sealedResumeToken';
import { useE2eEnvironment } from './support/environment';
import { rawExecutionText } from './support/load-executions';
import { nodeOutput, type WorkflowJson } from './support/n8n-client';
import { logParameter, questionLog, questionLogWorkflow, waitingAt } from './support/question-log';
import { chain, manualTrigger, phonovation, phonovationTrigger } from './support/workflow-builder';

const CAMPAIGN = '/api/v2/Campaign';
const TO = '353871234567';
const URL_TOKEN = 'delivery-url-token-7731';
const BRANCHES = ['On No Receipt', 'On Delivered', 'On Failed'] as const;
type Json = Record<string, any>;

const noOp = (name: string, y: number) => ({
	id: randomUUID(),
	name,
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [660, y] as [number, number],
	parameters: {},
});

/** Manual Trigger → Send and Wait for Delivery → one No Operation node on each of its outputs. */
function remindingWorkflow(logId: string, change: Json = {}, node: Json = {}): WorkflowJson {
	const remind = {
		...phonovation('Remind', {
			resource: 'conversation',
			operation: 'sendAndWaitForDelivery',
			questionLog: logParameter(logId),
			from: 'Phonovation',
			recipients: '0871234567',
			message: 'Reminder: your appointment is tomorrow at 10:00',
			...change,
		}),
		...node,
	};
	const branches = BRANCHES.map((name, i) => noOp(name, i * 200));
	return {
		name: `Reminder ${randomUUID().slice(0, 8)}`,
		nodes: [manualTrigger(), remind, ...branches],
		connections: {
			'Manual Trigger': { main: [[{ node: 'Remind', type: 'main', index: 0 }]] },
			Remind: { main: BRANCHES.map((name) => [{ node: name, type: 'main', index: 0 }]) },
		},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

describe('Send and Wait for Delivery in n8n', () => {
	const suite = useE2eEnvironment();
	const log = questionLog();
	afterAll(() => log.server.close());
	let logId = '';
	const inboxWebhook = randomUUID();
	let inboxId = '';
	let receipts = 0;

	/** The Question Log and the inbox's receipt branch (trigger → Deliver Receipt), published once. */
	async function setUp(env: ReturnType<typeof suite.env>): Promise<void> {
		if (logId) return;
		logId = (await env.importWorkflow(questionLogWorkflow(log.url()))).id;
		await env.client.publishWorkflow(logId);
		// Processing results are vouched for by the credential's URL token.
		const withToken = await env.createCredential('Phonovation (receipts)', { urlToken: URL_TOKEN });
		const inbox = await env.importWorkflow(
			chain(`Receipts ${inboxWebhook.slice(0, 8)}`, [
				phonovationTrigger(
					'On Receipt',
					{ events: ['deliveryReceipt', 'processingResult'] },
					inboxWebhook,
				),
				phonovation('Deliver', {
					resource: 'conversation',
					operation: 'deliverReceipt',
					questionLog: logParameter(logId),
				}),
			]),
			withToken,
		);
		await env.publish(inbox, 'On Receipt');
		inboxId = inbox.id;
	}

	/** What Deliver Receipt made of the inbox's next relay. */
	async function delivered(relay: { status: number }, env: ReturnType<typeof suite.env>) {
		expect(relay.status).toBe(200);
		const runs = await env.client.waitForExecutions(inboxId, ++receipts);
		return nodeOutput(runs[receipts - 1], 'Deliver')[0] as Json;
	}

	/** Sends a signed receipt to the inbox and returns what Deliver Receipt made of it. */
	async function receipt(env: ReturnType<typeof suite.env>, fields: Json): Promise<Json> {
		const url = `${env.n8n.url}/webhook/${inboxWebhook}/phonovation`;
		return await delivered(await env.sim.sendReceipt({ url, to: TO, ...fields }), env);
	}

	/** Runs a reminder and returns its waiting execution, its Notify ID and its log row. */
	async function reminded(env: ReturnType<typeof suite.env>, change: Json = {}, node: Json = {}) {
		await setUp(env);
		const workflow = await env.importWorkflow(remindingWorkflow(logId, change, node));
		const executionId = await env.client.runManually(workflow.id, 'Manual Trigger');
		const row = await log.next();
		await waitingAt(env, executionId);
		return { executionId, notifyId: row.reference as string, row };
	}

	/** Which branch nodes ran in the finished execution, and the item Remind put out there. */
	async function finished(env: ReturnType<typeof suite.env>, executionId: string) {
		const execution = await env.client.waitForExecution(executionId, 180_000);
		expect(execution.status).toBe('success');
		const ran = BRANCHES.filter((name) => execution.data.resultData.runData[name]);
		const output = BRANCHES.findIndex((name) => ran.includes(name));
		return { ran, item: nodeOutput(execution, 'Remind', output)[0] as Json };
	}

	suite.it(
		'a delivered receipt runs Delivered once; a forged one, one for another text and a second one change nothing',
		async (env) => {
			env.sim.reset();
			const { executionId, notifyId, row } = await reminded(env, {}, {});
			expect(row).toMatchObject({ phone: TO, waitsFor: 'receipt' });
			expect(env.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
				[{ msisdn: TO, notifyId }],
			]);

			// No run token at rest: neither the log's row nor the log workflow's saved executions
			// hold it (it would open every later wait of the run), and the row's URL resumes nothing.
			const token = (await env.client.execution(executionId)).data as unknown as Json;
			const resumeToken = String(token.resumeToken ?? '');
			expect(resumeToken).toMatch(/^[0-9a-f]{32,}$/);
			expect(JSON.stringify(row)).not.toContain(resumeToken);
			for (const logRun of await env.client.executions(logId)) {
				expect(await rawExecutionText(env.client, String(logRun.id))).not.toContain(resumeToken);
			}
			expect((await fetch(row.resumeUrl as string, { method: 'POST' })).status).toBe(401);
			expect((await env.client.execution(executionId)).status).toBe('waiting');

			// Even n8n's token (opened with the Relay Secret) is not enough: without our proof the run
			// keeps waiting.
			const sealedUrl = new URL(row.resumeUrl as string);
			const target = { executionId, nodeId: sealedUrl.pathname.split('/').pop()! };
			const opened = openToken(
				sealedUrl.searchParams.get('sealed')!,
				target,
				env.sim.config.relaySecret,
			);
			expect(opened).toBe(resumeToken);
			const withToken = new URL(sealedUrl);
			withToken.search = `?signature=${opened}`;
			const forged = await fetch(withToken, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					notifyId,
					outcome: 'failed',
					source: 'deliveryReceipt',
					reason: null,
					parts: { toSend: 1, sent: 0, failed: 1 },
					receivedAt: null,
					proof: '0'.repeat(64),
				}),
			});
			expect(forged.status).toBe(401);
			expect(await forged.json()).toEqual({ resumed: false, reason: 'no valid proof' });
			expect((await env.client.execution(executionId)).status).toBe('waiting');
			// The run's own resume URL (without this node's id) does not reach it either.
			const runUrl = withToken.toString().replace(/\/[^/?]+\?/, '?');
			expect((await fetch(runUrl, { method: 'POST' })).status).not.toBe(200);
			expect((await env.client.execution(executionId)).status).toBe('waiting');

			// An unsigned receipt is refused by the trigger; one for another text resumes nothing.
			const unsigned = await env.sim.sendReceipt({
				url: `${env.n8n.url}/webhook/${inboxWebhook}/phonovation`,
				notifyId,
				success: false,
				verify: '0'.repeat(32),
			});
			expect(unsigned.status).toBe(401);
			expect(
				await receipt(env, { notifyId: `${executionId}.1.abcdefghijkl`, success: true }),
			).toMatchObject({
				resumed: false,
				reason: 'no run is waiting for this text',
			});
			expect((await env.client.execution(executionId)).status).toBe('waiting');

			expect(await receipt(env, { notifyId, success: true })).toMatchObject({
				resumed: true,
				delivery: 'delivered',
				text: { reference: notifyId, executionId },
			});
			const { ran, item } = await finished(env, executionId);
			expect(ran).toEqual(['On Delivered']);
			expect(item).toMatchObject({
				delivery: 'delivered',
				reason: null,
				to: TO,
				notifyId,
				receipt: {
					source: 'deliveryReceipt',
					delivered: true,
					unverified: expect.objectContaining({ totalToSend: 1, totalSent: 1 }),
				},
				waitedSeconds: expect.any(Number),
			});

			// A second receipt for the same text: nothing is waiting any more.
			expect(await receipt(env, { notifyId, success: false })).toMatchObject({
				resumed: false,
				reason: 'no run is waiting for this text any more',
			});
			expect(env.sim.count('POST', CAMPAIGN)).toBe(1);
		},
		240_000,
	);

	suite.it(
		'a failed receipt runs Failed with the reason; Retry On Fail after a processed-then-500 posted the text once',
		async (env) => {
			env.sim.reset();
			env.sim.injectFault(CAMPAIGN, { kind: 'answer', status: 500, body: 'Internal Server Error' });
			const { executionId, notifyId } = await reminded(
				env,
				{},
				{ retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
			);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(1);
			expect(
				await receipt(env, {
					notifyId,
					success: false,
					totalToSend: 2,
					totalSent: 1,
					totalFailed: 1,
				}),
			).toMatchObject({ resumed: true, delivery: 'failed' });
			const { ran, item } = await finished(env, executionId);
			expect(ran).toEqual(['On Failed']);
			expect(item).toMatchObject({
				delivery: 'failed',
				reason:
					'the handset delivery receipt says it was not delivered (its unsigned counts: 1 of 2 parts failed)',
				sent: { status: 'unconfirmed' },
				receipt: {
					delivered: false,
					unverified: expect.objectContaining({ totalToSend: 2, totalSent: 1, totalFailed: 1 }),
				},
			});
			expect(env.sim.count('POST', CAMPAIGN)).toBe(1);
		},
		240_000,
	);

	suite.it(
		"a processing result that refuses the number runs Failed at once, with the provider's message; one that queued it changes nothing",
		async (env) => {
			env.sim.reset();
			const { executionId, notifyId } = await reminded(env);
			const url = `${env.n8n.url}/webhook/${inboxWebhook}/phonovation?token=${URL_TOKEN}`;
			const queued = await env.sim.sendProcessingResult({
				url,
				status: 'MESSAGE_SUCCESS',
				notifyId,
			});
			expect(await delivered(queued, env)).toMatchObject({
				resumed: false,
				reason: 'a processing result "MESSAGE_SUCCESS" is not final',
			});
			expect((await env.client.execution(executionId)).status).toBe('waiting');
			const refused = await env.sim.sendProcessingResult({
				url,
				status: 'MESSAGE_ERROR',
				notifyId,
			});
			expect(await delivered(refused, env)).toMatchObject({ resumed: true, delivery: 'failed' });
			const { ran, item } = await finished(env, executionId);
			expect(ran).toEqual(['On Failed']);
			expect(item).toMatchObject({
				delivery: 'failed',
				reason: 'Error trying to add a new message. No credits available',
				receipt: { source: 'processingResult', delivered: false },
			});
		},
		240_000,
	);

	suite.it(
		'no receipt within a 1-minute limit runs No Receipt, saying the text may still arrive',
		async (env) => {
			env.sim.reset();
			const { executionId, notifyId } = await reminded(env, { options: { limitWaitTime: 1 } });
			const { ran, item } = await finished(env, executionId);
			expect(ran).toEqual(['On No Receipt']);
			expect(item).toMatchObject({
				delivery: 'noReceipt',
				reason: expect.stringMatching(
					/^no delivery receipt within 1 minute; the text may still arrive/,
				),
				notifyId,
				receipt: null,
			});
			// A late receipt finds nothing waiting.
			expect(await receipt(env, { notifyId, success: true })).toMatchObject({
				resumed: false,
				reason: 'no run is waiting for this text any more',
			});
		},
		300_000,
	);
});
