import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import { DEFAULT_CONFIG } from '../simulator';
import { type E2eEnvironment, useE2eEnvironment } from './support/environment';
import { loadExample, publishQuestionLog } from './support/examples';
import { MANY_EXECUTIONS_N8N_ENV } from './support/load-settings';
import { type N8nClient, nodeOutput } from './support/n8n-client';
import { askAtOnce, remindAtOnce } from './support/questions-at-once';
import { type SmtpSink, smtpCredentialData, startSmtpSink } from './support/smtp-sink';
import { asWebhook } from './support/workflow-builder';

/** A numeric longcode, which replies can come back to. */
const LONGCODE = '353870000123';

/** The Data Tables the examples create on first use, gone: n8n as a new user has it. */
async function withoutTables(client: N8nClient) {
	for (const table of await client.dataTables())
		if (['opt-outs', 'questions', 'messages'].includes(table.name))
			await client.deleteDataTable(table.id);
}

/**
 * The examples under load in one n8n process (queue-mode.test.ts does the same on workers): 200
 * appointment questions and 200 delivery reminders at once, each resumed by its own relay through
 * the inbox. examples.test.ts runs the same workflows one at a time on n8n's defaults; here they
 * make about 800 executions a test on n8n's `legacy` expression engine (load-settings.ts). Each
 * test starts without the Data Tables, so its runs are first runs: all that find no `opt-outs`
 * table race to create it, the database refuses all but one, and every run must still go on with
 * the table another created (before, 19 of 30 appointment runs stopped there and asked nobody).
 */
describe('example workflows, 200 runs at once', () => {
	const suite = useE2eEnvironment({
		simulator: { senders: [...DEFAULT_CONFIG.senders, { name: LONGCODE, type: 0 }] },
		n8nEnv: MANY_EXECUTIONS_N8N_ENV,
	});
	let questionLog: string;
	let inboxUrl: string;
	let mail: SmtpSink;
	let smtp = { id: '', name: '' };

	beforeAll(async () => {
		const env = suite.env();
		questionLog = await publishQuestionLog(env);
		inboxUrl = await env.publish(
			await env.importWorkflow(loadExample('inbox', { questionLog })),
			'On Reply or Opt-Out',
		);
		mail = await startSmtpSink();
		smtp = await env.client.createCredential('Mail catcher', 'smtp', smtpCredentialData(mail));
	}, 60_000);
	afterAll(async () => await mail?.stop());

	suite.it(
		'200 first runs asking at once, answered in random order: every run resumes with its own answer',
		async (env) => {
			env.sim.reset();
			await withoutTables(env.client);
			const run = await askAtOnce(env, {
				count: 200,
				sender: LONGCODE,
				questionLog,
				webhookBase: env.n8n.url,
				inboxUrl,
			});
			expect(run.texted).toBe(200);
			expect(run.resumedWith).toEqual(run.answered);
		},
		420_000,
	);

	suite.it(
		'200 first runs reminding at once, receipts in random order: each run resumes once, on its own branch',
		async (env) => {
			env.sim.reset();
			await withoutTables(env.client);
			mail.mails.length = 0;
			const run = await remindAtOnce(env, {
				count: 200,
				sender: 'Phonovation',
				questionLog,
				webhookBase: env.n8n.url,
				inboxUrl,
				smtp,
			});
			expect(run.texted).toBe(200);
			expect(run.resumedOn).toEqual(run.receipts);
			// One e-mail for each failed text.
			const failed = run.receipts.filter(([, outcome]) => outcome === 'failed').length;
			await mail.waitFor(failed);
			expect(mail.mails).toHaveLength(failed);
		},
		420_000,
	);

	/** `example` started 30 times at once by a Webhook in place of its `trigger`: each run's `send` output. */
	async function thirtyAtOnce(
		env: E2eEnvironment,
		[example, trigger, send]: [string, string, string],
	): Promise<{ statuses: string[]; outputs: Array<Array<Record<string, unknown>>> }> {
		const path = `at-once-${randomUUID()}`;
		const template = loadExample(example);
		const workflow = await env.importWorkflow({
			...template,
			name: `${template.name} (at once) ${path}`,
			nodes: template.nodes.map((node) => (node.name === trigger ? asWebhook(node, path) : node)),
		});
		const url = `${env.n8n.url}/webhook/${path}`;
		await env.client.publishWorkflow(workflow.id);
		await env.client.waitForWebhook(url);
		const started = await Promise.all(
			Array.from({ length: 30 }, async () => {
				const response = await fetch(url, { method: 'POST', body: '{}' });
				await response.arrayBuffer();
				return response.status;
			}),
		);
		expect(started).toEqual(Array.from({ length: 30 }, () => 200));
		const runs = await env.client.waitForExecutions(workflow.id, 30, 180_000, { mode: 'webhook' });
		return {
			statuses: runs.map((run) => run.status),
			outputs: runs.map((run) => nodeOutput(run, send)),
		};
	}

	suite.it(
		'campaign-excluding-opt-outs and scheduled-campaign-from-list, 30 first runs of each at once: all succeed, and each run tells every customer what happened',
		async (env) => {
			env.sim.reset();
			await withoutTables(env.client);
			const examples: Array<[string, string, string]> = [
				['campaign-excluding-opt-outs', 'Run Campaign', 'Send Offer'],
				['scheduled-campaign-from-list', 'Run Now', 'Schedule Reminder'],
			];
			const results = await Promise.all(examples.map((example) => thirtyAtOnce(env, example)));
			for (const { statuses, outputs } of results) {
				expect(statuses).toEqual(statuses.map(() => 'success'));
				// An output item for each row of the list, the same in every run, none failed.
				expect(new Set(outputs.map((out) => out.length)).size).toBe(1);
				expect(outputs.flat().filter((item) => item.error !== undefined)).toEqual([]);
			}
			// One campaign a run.
			expect(env.sim.campaigns).toHaveLength(60);
		},
		300_000,
	);
});
