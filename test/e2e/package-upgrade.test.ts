// The package updated under a live inbox, in a real n8n: the package as it shipped with inbox
// protocol 2 (a fixture: `npm run build && npm pack` of commit 949ec20) runs its own inbox with rows
// and a waiting question; then today's package is installed over it and n8n restarted, as a user
// updates. The old inbox is refused before anything is sent, and once the inbox is re-imported the
// question asked by the old package is answered once and no row is lost.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DEFAULT_CONFIG } from '../simulator';
import { rowIdsByTable, rowsLost } from './support/data-table-rows';
import {
	logExcerpt,
	productionWebhookUrl,
	useSharedEnvironment,
	withCredential,
} from './support/environment';
import { asImported, loadExample } from './support/examples';
import { nodeError, nodeOutput, type WorkflowJson } from './support/n8n-client';
import { installCommunityPackage } from './support/n8n-process';
import { pollUntil, sentUntilTaken } from './support/poll';
import {
	type RestartableEnvironment,
	startRestartableEnvironment,
} from './support/restartable-environment';

const LONGCODE = '353870000123';
const PERSON = '353871234567';
const RELAYS = { mode: 'webhook' };

const EARLIER_PACKAGE = path.join(
	__dirname,
	'fixtures',
	'n8n-nodes-phonovation-inbox-protocol-2.tgz',
);

/** An example workflow as a package ships it. */
const shippedExample = (tarball: string, name: string): WorkflowJson =>
	JSON.parse(
		execFileSync('tar', ['-xzOf', tarball, `package/examples/${name}/workflow.json`], {
			encoding: 'utf8',
		}),
	) as WorkflowJson;

type UpgradeEnvironment = RestartableEnvironment & {
	/** Installs today's package over the earlier one and restarts n8n, as a user updates. */
	upgrade(): Promise<void>;
};

async function startUpgradeEnvironment(log: (line: string) => void): Promise<UpgradeEnvironment> {
	const env = await startRestartableEnvironment(log, {
		packageTarball: EARLIER_PACKAGE,
		simulator: { senders: [...DEFAULT_CONFIG.senders, { name: LONGCODE, type: 0 }] },
	});
	return Object.assign(env, {
		upgrade: async () => {
			await env.n8n.shutdown();
			await installCommunityPackage(env.n8n.userFolder, env.tarball);
			await env.n8n.start();
			await env.loggedInAgain();
		},
	});
}

/** The inbox protocol the installed package speaks, read from its installed code. */
function installedProtocol(userFolder: string): number {
	const file = path.join(
		userFolder,
		'.n8n/nodes/node_modules/n8n-nodes-phonovation/dist/nodes/Phonovation/resources/conversation/inboxWorkflow.js',
	);
	return Number(/INBOX_PROTOCOL = (\d+)/.exec(readFileSync(file, 'utf8'))?.[1]);
}

describe('the package updated under a live inbox, in n8n', () => {
	const suite = useSharedEnvironment(
		startUpgradeEnvironment,
		(env) => `n8n log (last lines):\n${logExcerpt(env.n8n.logTail(200))}`,
	);

	suite.it(
		'after the update the earlier inbox is refused with the re-import message; re-imported, the question the earlier package asked is answered once and no row is lost',
		async (env) => {
			const { sim, credential } = env;
			expect(installedProtocol(env.n8n.userFolder)).toBe(2);
			const webhookId = randomUUID();
			const setUp = { webhookId, keywordReplies: false };
			const inboxJson = withCredential(
				asImported(shippedExample(EARLIER_PACKAGE, 'inbox'), 'inbox', setUp),
				credential,
			);
			const inbox = { ...inboxJson, id: String((await env.client.createWorkflow(inboxJson)).id) };
			const url = productionWebhookUrl(env.n8n.url, inbox, 'On Reply or Opt-Out');
			const publish = async () => {
				await env.client.publishWorkflow(inbox.id);
				await env.client.waitForWebhook(url);
			};
			await publish();
			const asking = await env.client.createWorkflow(
				withCredential(
					asImported(
						shippedExample(EARLIER_PACKAGE, 'appointment-confirmation'),
						'appointment-confirmation',
						{ sender: LONGCODE, questionLog: inbox.id },
					),
					credential,
				),
			);
			let relays = 0;
			const nextRelayRun = async () =>
				(await env.client.waitForExecutions(inbox.id, ++relays, 60_000, RELAYS)).at(-1)!;

			// Live rows under the earlier package: a stranger's text, an opt-out, a waiting question.
			await sim.sendInbound({ url, from: '353870000001', content: 'hello', linked: false });
			expect((await nextRelayRun()).status).toBe('success');
			await sim.sendOptOut({ url, from: '353870000002', content: 'STOP' });
			expect((await nextRelayRun()).status).toBe('success');
			const waiting = await env.client.runManually(String(asking.id), 'Start');
			await pollUntil(
				async () => ((await env.client.execution(waiting)).status === 'waiting' ? true : undefined),
				'the question waiting',
				60_000,
			);
			const before = await rowIdsByTable(env.client);
			expect(Object.keys(before).sort()).toEqual(['messages', 'opt-outs', 'questions']);
			expect(sim.campaigns).toHaveLength(1);

			// The package is updated and n8n restarted; the user's inbox is still the earlier one.
			await env.upgrade();
			expect(installedProtocol(env.n8n.userFolder)).toBeGreaterThan(2);
			await env.client.waitForWebhook(url);
			await sim.sendInbound({ url, from: PERSON, content: 'YES', linked: true });
			const refused = await nextRelayRun();
			expect(refused.status).toBe('error');
			const refusal = nodeError(refused, 'Deliver to Waiting Question');
			expect(refusal?.message).toMatch(
				/^Question Log: the workflow is an inbox of an earlier n8n-nodes-phonovation, or not the inbox .*: this node stopped there, before texting or resuming anything more/,
			);
			expect(refusal?.description).toMatch(
				new RegExp(
					`^To re-import the inbox over workflow ${inbox.id}: .*rows, waiting questions included, are kept`,
				),
			);
			expect((await env.client.execution(waiting)).status).toBe('waiting');
			expect(sim.campaigns).toHaveLength(1);

			// Re-imported over it as the message says: same id, so the question still finds it.
			await env.client.replaceWorkflow(
				inbox.id,
				withCredential(loadExample('inbox', setUp), credential),
			);
			await publish();
			expect(
				await sentUntilTaken(() =>
					sim.sendInbound({ url, from: PERSON, content: 'YES', linked: true }),
				),
			).toBe(200);
			expect((await nextRelayRun()).status).toBe('success');
			const answered = await env.client.waitForExecution(waiting, 60_000);
			expect(answered.status).toBe('success');
			expect(nodeOutput(answered, 'Ask to Confirm')).toEqual([
				expect.objectContaining({ approved: true, from: PERSON }),
			]);
			expect(rowsLost(before, await rowIdsByTable(env.client))).toEqual({});
			// Answered once: the one question, and nothing texted since.
			expect(sim.campaigns).toHaveLength(1);
		},
		300_000,
	);
});
