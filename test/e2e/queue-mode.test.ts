import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import { inboundRelay } from '../simulator/relays';
import { TYPES } from './support/environment';
import {
	createExampleDataTables,
	assistantExample,
	exampleWebhookId,
	loadExample,
	publishQuestionLog,
} from './support/examples';
import { executionsUpToMarker, fetchExecutions, newestExecution } from './support/load-executions';
import { type OutgoingRequest, sendConcurrently, statusHistogram } from './support/load-http';
import { MANY_EXECUTIONS_N8N_ENV } from './support/load-settings';
import { type N8nClient, nodeOutput } from './support/n8n-client';
import { pollUntil } from './support/poll';
import { useQueueModeEnvironment } from './support/queue-environment';
import { executionsPerWorker, workerRunning } from './support/queue-workers';
import { askAtOnce, remindAtOnce } from './support/questions-at-once';
import { smtpCredentialData, startSmtpSink } from './support/smtp-sink';
import {
	chain,
	code,
	manualTrigger,
	phonovation,
	phonovationTrigger,
} from './support/workflow-builder';

const RECIPIENTS = 1_000;
/** Issue 17 asks for 2,000; PHONOVATION_E2E_QUEUE_RELAYS lowers it for a quick local run. */
const RELAYS = Number(process.env.PHONOVATION_E2E_QUEUE_RELAYS ?? 2_000);
const CONCURRENCY = 32;
const CAMPAIGN = '/api/v2/Campaign';
const FORM = 'application/x-www-form-urlencoded';
const KILL_PHONES = Array.from({ length: 6 }, (_, i) => `08755502${10 + i}`);

/** Campaign bodies the provider processed more than once: what a customer would be billed twice for. */
/**
 * Waits until no execution of an earlier test is running or queued: a run resumed late (an answer,
 * a receipt) could post a text to the provider and take a fault a test injected for its own.
 */
async function untilNoneRunning(client: N8nClient): Promise<void> {
	const filter = encodeURIComponent(JSON.stringify({ status: ['new', 'running'] }));
	await pollUntil(
		async () => {
			const list = await client.call<{ results: unknown[] }>(
				'GET',
				`/rest/executions?filter=${filter}&limit=1`,
			);
			return list.results.length === 0 ? true : undefined;
		},
		'the executions of earlier tests ending',
		180_000,
		1000,
	);
}

/**
 * Until no campaign has reached the provider for `quietMs`: a test that injects faults into the next
 * campaign requests must get them itself, not an earlier test's execution that a loaded worker is
 * still running (or that the queue gave again after a stall).
 */
async function untilProviderQuiet(
	sim: { count(method: string, path: string): number },
	quietMs = 5000,
) {
	let last = -1;
	let since = Date.now();
	await pollUntil(
		() => {
			const now = sim.count('POST', CAMPAIGN);
			if (now !== last) [last, since] = [now, Date.now()];
			return Date.now() - since >= quietMs ? true : undefined;
		},
		'the campaigns of earlier tests ending',
		180_000,
		500,
	);
}

function doubleSends(campaigns: Array<{ body: unknown }>): string[] {
	const bodies = campaigns.map((c) => JSON.stringify(c.body));
	return bodies.filter((b, i) => bodies.indexOf(b) !== i);
}

/**
 * n8n scaled out on PostgreSQL and Redis: main (editor and API), two workers running every
 * execution and a webhook process taking production webhooks. The credential's token is stored
 * in the shared database, so one login serves all processes.
 */
describe('Phonovation nodes in n8n queue mode (Postgres, main + 2 workers + webhook process)', () => {
	const suite = useQueueModeEnvironment({
		n8nEnv: {
			// Thousands of executions: n8n's legacy expression engine (load-settings.ts).
			...MANY_EXECUTIONS_N8N_ENV,
			// Keep every execution; a dead worker's job is declared stalled after 20 s instead of 60 s.
			EXECUTIONS_DATA_PRUNE: 'false',
			// n8n's default of 2 database connections per process makes 32 concurrent relays wait
			// past the 20 s connection timeout on a busy machine; a scaled-out n8n sizes its pools.
			DB_POSTGRESDB_POOL_SIZE: '10',
			QUEUE_WORKER_LOCK_DURATION: '20000',
			QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
			QUEUE_WORKER_STALLED_INTERVAL: '10000',
		},
	});
	let repliesUrl: string;
	let repliesWorkflowId: string;
	/** The inbox published as the Question Log: every question records itself there. */
	let questionLog: string;

	beforeAll(async () => {
		const env = suite.env();
		await createExampleDataTables(env.client);
		questionLog = await publishQuestionLog(env);
		const replies = await env.importWorkflow(loadExample('inbox', { questionLog }));
		repliesUrl = await env.publish(replies, 'On Reply or Opt-Out');
		repliesWorkflowId = replies.id;
		env.sim.reset();
		// Token expiry has its own scenario (campaigns.test.ts); here a slow machine must not end
		// the 120 s token lifetime mid-run and force a second, legitimate login.
		env.sim.clock.freeze();
	}, 120_000);

	suite.it(
		'all four processes are up and only the webhook process serves production webhooks',
		async ({ n8n }) => {
			for (const member of [n8n.main, ...n8n.workers, n8n.webhook]) {
				expect({
					name: member.name,
					status: (await fetch(`${member.url}/healthz/readiness`)).status,
				}).toEqual({
					name: member.name,
					status: 200,
				});
			}
			const onMain = await fetch(repliesUrl.replace(n8n.webhook.url, n8n.main.url), {
				method: 'POST',
			});
			expect(onMain.status).toBe(404);
		},
	);

	const bulkTitle = `bulk send: ${RECIPIENTS} items run on the worker as one campaign request after one login`;
	suite.it(
		bulkTitle,
		async ({ client, importWorkflow, n8n, sim }) => {
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
			expect(Object.values(executionsPerWorker(n8n.workers, [execution.id])).sort()).toEqual([
				0, 1,
			]);
			expect(sim.count('POST', '/api/v2/Campaign')).toBe(1);
			expect(sim.campaigns).toHaveLength(1);
			const sentTo = (sim.campaigns[0].body.recipientInfo as Array<{ msisdn: string }>).map(
				(r) => r.msisdn,
			);
			expect(new Set(sentTo).size).toBe(RECIPIENTS);
			expect(sentTo[RECIPIENTS - 1]).toBe(`353872${String(RECIPIENTS - 1).padStart(6, '0')}`);
			const output = nodeOutput(execution, 'Send Announcement');
			expect(output).toHaveLength(RECIPIENTS);
			expect(output[0]).toMatchObject({
				success: true,
				campaign: { recipients: RECIPIENTS, requests: 1 },
			});
			expect(sim.count('POST', '/token')).toBe(1);
		},
		300_000,
	);

	suite.it(
		'a signed reply to the webhook process runs the auto-responder on the worker with the stored token',
		async ({ client, n8n, sim }) => {
			const relay = await sim.sendInbound({
				url: repliesUrl,
				from: '353871234599',
				content: 'YES please',
				keyphrase: '*',
			});
			expect(relay.status).toBe(200);

			const [execution] = await client.waitForExecutions(repliesWorkflowId, 1, 120_000, {
				mode: 'webhook',
			});
			expect(execution.status).toBe('success');
			expect(execution.mode).toBe('webhook');
			expect(Object.values(executionsPerWorker(n8n.workers, [execution.id])).sort()).toEqual([
				0, 1,
			]);
			expect(nodeOutput(execution, 'Confirm Appointment')).toEqual([
				expect.objectContaining({ success: true }),
			]);
			expect(sim.campaigns).toHaveLength(2);
			expect(sim.campaigns[1].body).toMatchObject({
				text: 'Thanks, your appointment is confirmed. See you then!',
				recipientInfo: [{ msisdn: '353871234599' }],
			});
			expect(sim.count('POST', '/token')).toBe(1);
		},
	);

	suite.it(
		'Send and Wait for Reply: the question waits in the database, and the answer through the webhook process resumes it on a worker',
		async ({ client, importWorkflow, n8n, sim }) => {
			const url = repliesUrl;
			// 353851234567: a numeric longcode the simulator approves.
			const asking = await importWorkflow(
				loadExample('appointment-confirmation', { sender: '353851234567', questionLog }),
			);
			const before = sim.campaigns.length;
			const executionId = await client.runManually(asking.id, 'Start');
			for (let tries = 0; (await client.execution(executionId)).status !== 'waiting'; tries++) {
				if (tries > 240) throw new Error('the question never started waiting');
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			expect(sim.campaigns.slice(before).map((c) => c.body.recipientInfo[0].msisdn)).toEqual([
				'353871234567',
			]);

			// Sent now: the simulator's clock is frozen at the start of the file (for the token), and a
			// reply stamped before its question (beyond the clock skew allowed) answers nothing.
			const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
			expect(
				(await sim.sendInbound({ url, from: '353871234567', content: 'Tá', timestamp: now }))
					.status,
			).toBe(200);
			const answered = await client.waitForExecution(executionId, 120_000);
			expect(answered.status).toBe('success');
			expect(nodeOutput(answered, 'Ask to Confirm')).toEqual([
				expect.objectContaining({ approved: true, text: 'Tá' }),
			]);
			expect(
				Object.values(executionsPerWorker(n8n.workers, [executionId])).reduce((a, b) => a + b, 0),
			).toBe(1);
		},
	);

	suite.it(
		'main reuses the same stored token for the sender dropdown: one login across the whole run',
		async ({ client, credential, sim }) => {
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
		},
	);

	suite.it(
		`${RELAYS} signed relays at concurrency ${CONCURRENCY} to the webhook process become exactly ${RELAYS} executions, run by both workers`,
		async ({ client, importWorkflow, n8n, publish, sim }) => {
			const started = Date.now();
			const workflow = await importWorkflow(
				chain('Replies under load (queue mode)', [
					phonovationTrigger('On Reply', { events: ['inbound', 'optOut'] }, randomUUID()),
				]),
			);
			const url = new URL(await publish(workflow, 'On Reply'));
			const context = {
				secret: sim.config.relaySecret,
				nowMs: sim.clock.now(),
				defaultSender: 'Phonovation',
			};
			const relay = (from: string): OutgoingRequest => ({
				path: url.pathname,
				headers: { 'content-type': FORM },
				body: inboundRelay({ from, content: `Reply from ${from}` }, context).body,
			});
			const handset = (i: number) => `35387${String(i).padStart(7, '0')}`;
			const answers = await sendConcurrently(
				url.origin,
				Array.from({ length: RELAYS }, (_, i) => relay(handset(i))),
				CONCURRENCY,
			);
			const refusals = [
				...new Set(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body}`)),
			].slice(0, 5);
			expect({ statuses: statusHistogram(answers), refusals }).toEqual({
				statuses: { 200: RELAYS },
				refusals: [],
			});
			const sentAt = Date.now();
			const [final] = await sendConcurrently(url.origin, [relay(handset(9_999_999))], 1);
			expect(final.status).toBe(200);

			const summaries = await executionsUpToMarker(client, workflow.id, RELAYS + 1, {
				timeoutMs: 900_000,
			});
			const finishedAt = Date.now();
			expect(summaries).toHaveLength(RELAYS + 1);
			expect(summaries.every((e) => e.mode === 'webhook' && e.status === 'success')).toBe(true);
			const executions = await fetchExecutions(
				client,
				summaries.map((e) => String(e.id)),
			);
			const senders = executions.map((e) => String(nodeOutput(e, 'On Reply')[0]?.from)).sort();
			expect(senders).toEqual([
				...Array.from({ length: RELAYS }, (_, i) => handset(i)),
				handset(9_999_999),
			]);
			expect(newestExecution(summaries)?.id).toBe(
				executions.find((e) => nodeOutput(e, 'On Reply')[0]?.from === handset(9_999_999))?.id,
			);
			const perWorker = executionsPerWorker(
				n8n.workers,
				summaries.map((e) => String(e.id)),
			);
			expect(Object.values(perWorker).reduce((a, b) => a + b, 0)).toBe(RELAYS + 1);
			expect(Object.values(perWorker).every((count) => count > 0)).toBe(true);
			process.stderr.write(
				`[queue-mode] ${RELAYS} relays: sent in ${(sentAt - started) / 1000} s, all executions stored after ${(finishedAt - started) / 1000} s, checked after ${(Date.now() - started) / 1000} s; per worker ${JSON.stringify(perWorker)}\n`,
			);
		},
		1_200_000,
	);

	suite.it(
		'40 personalised campaigns from 8 executions spread over both workers: no body posted twice, no extra login',
		async ({ client, importWorkflow, n8n, sim }) => {
			const started = Date.now();
			const rows = Array.from({ length: 5 }, (_, i) => ({
				phone: `08755501${10 + i}`,
				name: `Guest ${i}`,
			}));
			const workflow = await importWorkflow(
				chain('Personalised campaigns (queue mode)', [
					manualTrigger(),
					code('Guests', `return ${JSON.stringify(rows)}.map((json) => ({ json }));`),
					phonovation('Invite', {
						resource: 'campaign',
						operation: 'send',
						from: 'Phonovation',
						text: '=Hi {{ $json.name }}, your table is ready (booking {{ $execution.id }})',
						recipients: '={{ $json.phone }}',
					}),
				]),
			);
			const since = sim.campaigns.length;
			const tokensBefore = sim.count('POST', '/token');
			// Each campaign request is held a little, so executions overlap and both workers take some.
			sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 400 }, 40);
			const ids = await Promise.all(
				Array.from({ length: 8 }, () => client.runManually(workflow.id, 'Manual Trigger')),
			);
			const executions = await Promise.all(ids.map((id) => client.waitForExecution(id, 300_000)));

			expect(executions.map((e) => e.status)).toEqual(Array(8).fill('success'));
			const campaigns = sim.campaigns.slice(since);
			expect(campaigns).toHaveLength(40);
			expect(doubleSends(campaigns)).toEqual([]);
			const perWorker = executionsPerWorker(n8n.workers, ids);
			expect(Object.values(perWorker).reduce((a, b) => a + b, 0)).toBe(8);
			expect(Object.values(perWorker).every((count) => count > 0)).toBe(true);
			// The token stored in the shared database serves both workers: at most one login each.
			expect(sim.count('POST', '/token') - tokensBefore).toBeLessThanOrEqual(n8n.workers.length);
			process.stderr.write(
				`[queue-mode] 40 campaigns in ${(Date.now() - started) / 1000} s; per worker ${JSON.stringify(perWorker)}; new logins ${sim.count('POST', '/token') - tokensBefore}, total ${sim.count('POST', '/token')}\n`,
			);
		},
		400_000,
	);

	/**
	 * What n8n 2.41 does when the worker running a campaign dies: Bull does not hand the job to
	 * another worker (maxStalledCount 0); the execution becomes `error` with nothing of its run
	 * kept, the node context included; and a Retry of it runs nothing and posts nothing. Only the
	 * provider knows what was accepted: here batch 2 too, whose answer the worker never saw.
	 */
	suite.it(
		'200 questions at once, answered in random order through the webhook process: each run resumes once with its own answer, on both workers',
		async (env) => {
			// Replies carry the simulator's time: real time again, after the token tests froze it.
			env.sim.clock.advance((Date.now() - env.sim.clock.now()) / 1000);
			env.sim.clock.unfreeze();
			const run = await askAtOnce(env, {
				count: 200,
				sender: '353851234567',
				questionLog,
				webhookBase: env.n8n.webhook.url,
				inboxUrl: repliesUrl,
			});
			expect(run.texted).toBe(200);
			expect(run.resumedWith).toEqual(run.answered);
			const perWorker = Object.values(executionsPerWorker(env.n8n.workers, run.executionIds));
			expect(perWorker.filter((n) => n > 0)).toHaveLength(2);
		},
		600_000,
	);

	suite.it(
		'200 reminders at once, receipts in random order: each run resumes once on its own branch, on both workers',
		async (env) => {
			const mail = await startSmtpSink();
			try {
				const smtp = await env.client.createCredential(
					'Mail catcher (queue)',
					'smtp',
					smtpCredentialData(mail),
				);
				const run = await remindAtOnce(env, {
					count: 200,
					sender: 'Phonovation',
					questionLog,
					webhookBase: env.n8n.webhook.url,
					inboxUrl: repliesUrl,
					smtp,
				});
				expect(run.texted).toBe(200);
				expect(run.resumedOn).toEqual(run.receipts);
				const failed = run.receipts.filter(([, outcome]) => outcome === 'failed').length;
				await mail.waitFor(failed);
				expect(mail.mails).toHaveLength(failed);
				const perWorker = Object.values(executionsPerWorker(env.n8n.workers, run.executionIds));
				expect(perWorker.filter((n) => n > 0)).toHaveLength(2);
			} finally {
				await mail.stop();
			}
		},
		600_000,
	);

	suite.it(
		'an SMS assistant behind the inbox: a burst of three texts through the webhook process is one turn and one reply, whichever workers run it',
		async ({ client, importWorkflow, publish, sim }) => {
			const assistant = await importWorkflow(await assistantExample(client, sim.url, questionLog));
			await client.publishWorkflow(assistant.id);
			const inbox = await importWorkflow(
				loadExample('inbox', {
					questionLog,
					assistantWorkflow: assistant.id,
					webhookId: exampleWebhookId('inbox', 'assistant'),
				}),
			);
			const url = await publish(inbox, 'On Reply or Opt-Out');
			const phone = '353871119999';
			const before = sim.campaigns.length;
			const chats = sim.chatRequests.length;
			// Half a second apart, as a person texts.
			for (const content of ['Hi', 'I need to move my appointment', 'to Friday']) {
				expect(
					(await sim.sendInbound({ url, from: phone, to: '353851234567', content })).status,
				).toBe(200);
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
			const runs = await client.waitForExecutions(assistant.id, 3, 180_000);
			const turns = runs.flatMap((run) => nodeOutput(run, 'Collect Burst'));
			// One turn holding all three in the order they were sent, even when busy workers log them out
			// of order (as earlier runs saw): the webhook process stamped each on arrival, and the stamps
			// went through the inbox to the log.
			expect(turns).toHaveLength(1);
			expect(turns[0].text).toBe('Hi\nI need to move my appointment\nto Friday');
			const sentAt = (turns[0].messages as Array<{ at: string }>).map((m) => m.at);
			expect(sentAt).toContain(turns[0].arrivedAt);
			const asked = sim.chatRequests.slice(chats).filter((r) => r.at(-1)?.role === 'user');
			expect(asked).toHaveLength(1);
			const replies = sim.campaigns
				.slice(before)
				.filter((c) => c.body.recipientInfo.some((r: { msisdn: string }) => r.msisdn === phone));
			expect(replies).toHaveLength(1);

			// The next turn, on whichever worker: the agent's request carries the first from the log.
			await new Promise((resolve) => setTimeout(resolve, 6_000));
			const later = sim.chatRequests.length;
			expect(
				(await sim.sendInbound({ url, from: phone, to: '353851234567', content: 'And Saturday?' }))
					.status,
			).toBe(200);
			await client.waitForExecutions(assistant.id, 4, 180_000);
			const [next] = sim.chatRequests.slice(later).filter((r) => r.at(-1)?.role === 'user');
			expect(next.at(-1)?.content).toContain(
				'What we said before, oldest first:\nThem: "Hi"\nThem: "I need to move my appointment"\nThem: "to Friday"\nUs: ',
			);
			expect(next.at(-1)?.content).toMatch(/\n\nTheir new message:\nAnd Saturday\?$/);
			process.stderr.write(
				`[queue-mode] assistant: 3 texts, ${runs.length} runs, 1 turn, 1 reply; the next turn remembers it\n`,
			);
		},
		300_000,
	);

	suite.it(
		'kill -9 of the worker mid-campaign: no other worker posts, the execution ends in error, a Retry posts nothing',
		async ({ client, importWorkflow, n8n, sim }) => {
			const workflow = await importWorkflow(
				chain('Batched campaign (queue mode, worker killed)', [
					manualTrigger(),
					code('Customers', `return [{ json: { phones: ${JSON.stringify(KILL_PHONES)} } }];`),
					phonovation('Send', {
						resource: 'campaign',
						operation: 'send',
						from: 'Phonovation',
						text: 'Your parcel ships today',
						recipients: '={{ $json.phones }}',
						options: { batchSize: 2, parallelRequests: 1 },
					}),
				]),
			);
			await untilNoneRunning(client);
			await untilProviderQuiet(sim);
			const since = sim.campaigns.length;
			const postsBefore = sim.count('POST', CAMPAIGN);
			const posts = () => sim.count('POST', CAMPAIGN) - postsBefore;
			// Batch 1 goes through; batch 2 is held by the provider long enough to kill its sender.
			sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 0 });
			sim.injectFault(CAMPAIGN, { kind: 'delay', ms: 15_000 });
			const id = await client.runManually(workflow.id, 'Manual Trigger');
			await pollUntil(
				() => (posts() >= 2 ? true : undefined),
				'batch 2 reaching the provider',
				120_000,
			);
			const victim = await workerRunning(n8n.workers, id, 10_000);
			const killedAt = Date.now();
			await victim.kill();

			const settled = await pollUntil(
				async () => {
					const execution = await client.execution(id);
					return ['new', 'running'].includes(execution.status) ? undefined : execution;
				},
				`execution ${id} settling after the kill`,
				300_000,
				1000,
			);
			const settledAfter = (Date.now() - killedAt) / 1000;
			expect(settled.status).toBe('error');
			expect(settled.data.resultData.error?.message).toMatch(
				/failed to be processed too many times/,
			);
			expect(settled.data.resultData.runData).toEqual({});
			expect(settled.data.executionData?.contextData).toEqual({});
			// The held batch 2 still reaches the provider; batch 3 is never posted, by no one.
			await pollUntil(
				() => (sim.campaigns.length >= since + 2 ? true : undefined),
				'the held batch 2 being processed',
				60_000,
			);
			const survivors = n8n.workers.filter((w) => w !== victim);
			expect(executionsPerWorker(survivors, [id])).toEqual(
				Object.fromEntries(survivors.map((w) => [w.name, 0])),
			);
			expect(posts()).toBe(2);
			const batches = sim.campaigns
				.slice(since)
				.map((c) => c.body.recipientInfo.map((r: { msisdn: string }) => r.msisdn));
			expect(batches).toEqual(
				[KILL_PHONES.slice(0, 2), KILL_PHONES.slice(2, 4)].map((b) =>
					b.map((p) => `353${p.slice(1)}`),
				),
			);

			const answer = await client.call<{ id: string; mode: string; status: string }>(
				'POST',
				`/rest/executions/${id}/retry`,
				{ loadWorkflow: false },
			);
			const retried = await client.waitForExecution(String(answer.id), 120_000);
			expect({
				mode: retried.mode,
				status: retried.status,
				runData: retried.data.resultData.runData,
			}).toEqual({ mode: 'retry', status: 'error', runData: {} });
			expect(posts()).toBe(2);
			process.stderr.write(
				`[queue-mode] killed ${victim.name}; execution ${id} was ${settled.status} ${settledAfter} s after the kill; retry ${retried.id} ${retried.status}, posts ${posts()}\n`,
			);
		},
		600_000,
	);
});
