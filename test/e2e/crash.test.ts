import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import type { Simulator } from '../simulator';
import {
	logExcerpt,
	productionWebhookUrl,
	useSharedEnvironment,
	withCredential,
} from './support/environment';
import { assistantExample, loadExample, publishQuestionLog } from './support/examples';
import { type Execution, nodeOutput, type WorkflowJson } from './support/n8n-client';
import { pollUntil } from './support/poll';
import {
	type RestartableEnvironment,
	startRestartableEnvironment,
} from './support/restartable-environment';
import { chain, code, phonovation, webhook } from './support/workflow-builder';

const CAMPAIGN = '/api/v2/Campaign';
/** How long the provider holds each campaign request: n8n is killed while all three wait. */
const HOLD_MS = 15_000;
type Json = Record<string, any>;

type CrashEnvironment = RestartableEnvironment & {
	/** kill -9 of n8n and its task runner, then `n8n start` on the same user folder, port and key. */
	crashAndRestart(env?: Record<string, string>): Promise<{ killedAt: number; readyAt: number }>;
};

async function startCrashEnvironment(log: (line: string) => void): Promise<CrashEnvironment> {
	const env = await startRestartableEnvironment(log);
	return Object.assign(env, {
		crashAndRestart: async (extraEnv?: Record<string, string>) => {
			await env.n8n.kill();
			const killedAt = Date.now();
			await env.n8n.start(extraEnv);
			await env.loggedInAgain();
			return { killedAt, readyAt: Date.now() };
		},
	});
}

const personalised = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ phone: `08712345${10 + i}`, text: `Hi person ${i}` }));
const itemsCode = (items: unknown[]) =>
	`return ${JSON.stringify(items)}.map((json) => ({ json }));`;
const texts = (sim: Simulator) => sim.campaigns.map((c) => c.body.text as string).sort();

/** The error of the node's last run in an execution (a Retry appends its run after the crashed one n8n removed). */
function lastNodeError(execution: Execution, nodeName: string) {
	return execution.data.resultData.runData[nodeName]?.at(-1)?.error;
}

function show(label: string, execution: Execution): void {
	const runs = execution.data.resultData.runData.Send ?? [];
	const summary = {
		id: execution.id,
		mode: execution.mode,
		status: execution.status,
		runError: execution.data.resultData.error?.message,
		sendRuns: runs.map((run) => ({
			error: run.error?.message,
			description: run.error?.description,
		})),
		rowsItems: nodeOutput(execution, 'Rows'),
		sendItems: nodeOutput(execution, 'Send', 0, Math.max(0, runs.length - 1)),
	};
	process.stderr.write(`[e2e crash] ${label}: ${JSON.stringify(summary, null, 2)}\n`);
}

/** A published Webhook → three personalised rows → Phonovation Campaign Send (each row its own campaign request). */
async function publishCampaignWorkflow(env: CrashEnvironment, name: string) {
	const path = `crash-${randomUUID()}`;
	const trigger = webhook(path);
	const send = phonovation('Send', {
		resource: 'campaign',
		operation: 'send',
		from: 'Phonovation',
		text: '={{ $json.text }}',
		recipients: '={{ $json.phone }}',
		options: { messageType: 'transactional' },
	});
	const workflow = withCredential(
		chain(name, [trigger, code('Rows', itemsCode(personalised(3))), send]),
		env.credential,
	);
	const stored = await env.client.createWorkflow(workflow);
	const workflowId = String(stored.id);
	const url = env.n8n.webhookUrl(path);
	await env.client.publishWorkflow(workflowId);
	await env.client.waitForWebhook(url);
	return { workflowId, url };
}

/**
 * The scenario: three campaign requests held by the provider, n8n killed (-9) while the node waits
 * for them, n8n started again, the crashed execution retried from the executions list.
 */
async function crashThenRetry(
	env: CrashEnvironment,
	name: string,
	{
		n8nEnv = {},
		progressSaved = false,
	}: { n8nEnv?: Record<string, string>; progressSaved?: boolean } = {},
) {
	const t0 = Date.now();
	const { workflowId, url } = await publishCampaignWorkflow(env, name);
	try {
		env.sim.reset();
		env.sim.injectFault(CAMPAIGN, { kind: 'delay', ms: HOLD_MS }, 3);
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		await response.arrayBuffer();
		expect(response.status).toBe(200);
		await pollUntil(
			() => (env.sim.campaignExchanges.length === 3 ? true : undefined),
			'three campaign requests at the provider',
			20_000,
			25,
		);
		// The execution n8n is running, as the executions list shows it.
		const running = await pollUntil(
			async () => (await env.client.executions(workflowId))[0],
			'the running execution',
			10_000,
		);
		expect(running.status).toBe('running');
		expect(env.sim.campaigns).toHaveLength(0);

		const { killedAt, readyAt } = await env.crashAndRestart(n8nEnv);
		const crashed = await env.client.waitForExecution(String(running.id), 30_000);
		show('The execution after the restart', crashed);
		expect(crashed.status).toBe('crashed');
		expect(lastNodeError(crashed, 'Send')?.message).toMatch(/Execution stopped at this node/);
		// With progress saved, the rows the Send node was given survive; without, n8n rebuilds the runs from its event log.
		if (progressSaved) expect(nodeOutput(crashed, 'Rows')).toEqual(personalised(3));
		else expect(nodeOutput(crashed, 'Rows')).not.toEqual(personalised(3));

		// The provider processed the three requests it held, though n8n never heard back.
		await pollUntil(
			() => (env.sim.campaigns.length === 3 ? true : undefined),
			'the provider processing the held requests',
			HOLD_MS + 10_000,
		);
		expect(env.sim.count('POST', CAMPAIGN)).toBe(3);
		expect(texts(env.sim)).toEqual(['Hi person 0', 'Hi person 1', 'Hi person 2']);

		// Executions → the crashed execution → Retry → "Retry with original workflow".
		const answer = await env.client.call<{ id: string; status: string }>(
			'POST',
			`/rest/executions/${running.id}/retry`,
			{ loadWorkflow: false },
		);
		process.stderr.write(
			`[e2e crash] n8n answered the Retry: ${JSON.stringify({ id: answer?.id, status: answer?.status })}\n`,
		);
		const retried = await env.client.waitForExecution(String(answer.id), 60_000);
		show('The Retry of the crashed execution', retried);
		expect(retried.mode).toBe('retry');
		expect(env.sim.count('POST', CAMPAIGN)).toBe(3);
		expect(texts(env.sim)).toEqual(['Hi person 0', 'Hi person 1', 'Hi person 2']);
		expect(retried.status).toBe('error');
		expect(lastNodeError(retried, 'Send')?.message).toMatch(
			/^Nothing was sent: this is a Retry of an execution, and the execution it retries crashed while this node was running/,
		);
		process.stderr.write(
			`[e2e crash] ${name}: n8n down ${((readyAt - killedAt) / 1000).toFixed(1)} s, scenario ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
		);
	} finally {
		await env.client.unpublishWorkflow(workflowId).catch(() => undefined);
	}
}

/** Never bill twice: n8n killed mid-campaign, restarted on the same database, then a Retry. */
describe('a single-process n8n killed while the Phonovation node posts a campaign, restarted, then retried', () => {
	const suite = useSharedEnvironment(
		startCrashEnvironment,
		(env) => `n8n log (last lines):\n${logExcerpt(env.n8n.logTail(200))}`,
	);

	suite.it(
		'kill -9 with three campaigns in flight, restart on the same user folder: the execution is crashed and its Retry posts nothing again',
		async (env) => await crashThenRetry(env, 'Crashed mid-campaign'),
		240_000,
	);

	suite.it(
		"the SMS assistant remembers across a restart: after n8n restarts, the agent's request carries the person's earlier turn and our reply",
		async (env) => {
			const importWorkflow = async (workflow: WorkflowJson) => {
				const created = await env.client.createWorkflow(withCredential(workflow, env.credential));
				return { ...created, id: String(created.id) };
			};
			const questionLog = await publishQuestionLog({ importWorkflow, client: env.client });
			const assistant = await importWorkflow(
				await assistantExample(env.client, env.sim.url, questionLog),
			);
			await env.client.publishWorkflow(assistant.id);
			const inbox = await importWorkflow(
				loadExample('inbox', {
					questionLog,
					assistantWorkflow: assistant.id,
					webhookId: randomUUID(),
				}),
			);
			await env.client.publishWorkflow(inbox.id);
			const url = productionWebhookUrl(env.n8n.url, inbox, 'On Reply or Opt-Out');
			await env.client.waitForWebhook(url);
			const phone = '353871117777';
			const text = async (content: string) =>
				expect(
					(await env.sim.sendInbound({ url, from: phone, to: '353851234567', content })).status,
				).toBe(200);
			await text('Hi, is Friday free?');
			await env.client.waitForExecutions(assistant.id, 1, 120_000);
			const [first] = env.sim.campaigns.filter((c) => c.body.recipientInfo[0].msisdn === phone);
			expect(first).toBeDefined();

			await env.n8n.shutdown();
			await env.n8n.start();
			await env.loggedInAgain();
			await env.client.waitForWebhook(url);
			const asked = env.sim.chatRequests.length;
			await text('And Saturday?');
			await env.client.waitForExecutions(assistant.id, 2, 120_000);
			const prompt = env.sim.chatRequests.slice(asked).find((r) => r.at(-1)?.role === 'user');
			const replied = String(first.body.text).split('\n').slice(1).join('\n');
			expect(prompt?.at(-1)?.content).toBe(
				`What we said before, oldest first:\nThem: "Hi, is Friday free?"\nUs: ${JSON.stringify(replied)}\n\nTheir new message:\nAnd Saturday?`,
			);
		},
		240_000,
	);

	suite.it(
		'the same with EXECUTIONS_DATA_SAVE_ON_PROGRESS=true: the Retry posts nothing again',
		async (env) => {
			const saveOnProgress = { EXECUTIONS_DATA_SAVE_ON_PROGRESS: 'true' };
			await env.n8n.shutdown();
			await env.n8n.start(saveOnProgress);
			await env.loggedInAgain();
			await crashThenRetry(env, 'Crashed mid-campaign, progress saved', {
				n8nEnv: saveOnProgress,
				progressSaved: true,
			});
		},
		240_000,
	);
});
