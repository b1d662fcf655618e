// docs/conversations.md's "On your own n8n, step by step" in a real Chromium on a fresh n8n, every
// editor action a new user makes counted, up to the first question answered.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Browser, Page } from 'puppeteer-core';

import packageJson from '../../package.json';
import { launchChromium, screenshotFolder, signIn } from './support/browser';
import { oneDemoAtATime } from './support/demo-process';
import {
	addRelaySecret,
	askQuestion,
	chooseCredentialEverywhere,
	copyProductionUrl,
	createCredential,
	EDITOR_ACTIONS_BY_STEP,
	EDITOR_ACTIONS_TO_FIRST_ANSWER,
	EditorWalk,
	importBeforeCredential,
	importInbox,
	publish,
	reopenEarlyImport,
	shownWorkflowId,
} from './support/editor-walk';
import { productionWebhookUrl, TYPES, useE2eEnvironment } from './support/environment';
import { type N8nClient, nodeOutput, type WorkflowJson } from './support/n8n-client';
import { pollUntil } from './support/poll';
import { waitingAt } from './support/question-log';

/** The inbox's relay entry: n8n's Webhook node, then Verify Relay. */
const RELAY_URL_NODE = 'Relay URL';
const VERIFY_RELAY_NODE = 'On Reply or Opt-Out';
/** The simulator's one numeric longcode: the only sender Send and Wait lists. */
const SENDER = '353851234567 (numeric)';
const ASKED = '353871234567';
const MESSAGE = 'Reply YES to confirm your appointment tomorrow at 10:00, NO to cancel';
const URL_TOKEN = 'a-long-random-url-token-of-my-choice';

/** The id of the workflow the editor shows, once n8n has saved it. */
const savedWorkflowId = (page: Page) =>
	pollUntil(() => shownWorkflowId(page), 'the workflow saved (its id in the address)', 30_000);

/** The run "Execute workflow" started, once n8n has it waiting for the answer. */
async function waitingRun(client: N8nClient, workflowId: string): Promise<string> {
	const id = await pollUntil(
		async () => (await client.executions(workflowId)).map((run) => String(run.id))[0],
		'the asking run started',
		60_000,
	);
	await waitingAt({ client }, id);
	return id;
}

/** A workflow gone from n8n (archived, then deleted), as a user clears an experiment away. */
async function deleteWorkflow(client: N8nClient, id: string): Promise<void> {
	await client.call('POST', `/rest/workflows/${id}/archive`, {});
	await client.call('DELETE', `/rest/workflows/${id}`);
}

/** A node's options as a workflow file or n8n holds them. */
const optionsOf = (workflow: WorkflowJson, name: string) =>
	JSON.stringify(
		(workflow.nodes.find((node) => node.name === name)?.parameters as { options?: unknown })
			?.options,
	);

// A real Chromium beside n8n on two cores: one browser file at a time (browser.test.ts's lock).
oneDemoAtATime();

describe("a new user's editor actions on a fresh n8n, from the credential to the first answered question", () => {
	const suite = useE2eEnvironment();
	let browser: Browser | undefined;
	let page: Page;
	let shots: string;

	beforeAll(async () => {
		browser = await launchChromium((line) => process.stderr.write(`${line}\n`));
		page = await browser.newPage();
		shots = await screenshotFolder();
		process.stderr.write(`Editor walk screenshots: ${shots}\n`);
	}, 10 * 60_000);

	afterAll(async () => await browser?.close());

	suite.it(
		'takes the counted editor actions, and a signed YES answers the question it asked',
		async ({ n8n, client, sim, credential }) => {
			// Step 1 (an address the provider reaches) is the test's n8n, and the package is installed
			// there already (step 2's Community Nodes install is not done here). The user makes the
			// credential in the editor: the suite's own goes first.
			await client.deleteCredential(credential.id);
			const inboxFile = path.join(
				n8n.userFolder,
				'.n8n/nodes/node_modules',
				packageJson.name,
				'examples/inbox/workflow.json',
			);
			await signIn(page, n8n.url);
			const walk = new EditorWalk(page, shots);
			const early = await importBeforeCredential(walk, inboxFile);

			await createCredential(walk, {
				username: sim.config.username,
				password: sim.config.password,
				urlToken: URL_TOKEN,
				simulatorUrl: sim.url,
			});
			const [{ name }] = await client.credentials();
			await reopenEarlyImport(walk, `${n8n.url}/workflow/${early}`, name);
			page.once('dialog', (dialog) => void dialog.accept());
			await page.goto(`${n8n.url}/home/workflows`, { waitUntil: 'networkidle2' });
			await deleteWorkflow(client, early);

			await importInbox(walk, inboxFile);
			await chooseCredentialEverywhere(walk, name);
			await publish(walk);
			const inbox = await client.getWorkflow(await savedWorkflowId(page));
			const relayUrl = productionWebhookUrl(n8n.url, inbox, VERIFY_RELAY_NODE);
			const shipped = JSON.parse(readFileSync(inboxFile, 'utf8')) as WorkflowJson;
			walk.note(
				`${RELAY_URL_NODE}'s options: ${optionsOf(shipped, RELAY_URL_NODE)} in the file, ${optionsOf(inbox, RELAY_URL_NODE)} as the editor saved them`,
			);

			// The editor keeps the exact bytes for Verify Relay's check: Raw Body survives the import.
			expect(optionsOf(inbox, RELAY_URL_NODE)).toBe(JSON.stringify({ rawBody: true }));
			expect(await copyProductionUrl(walk, RELAY_URL_NODE)).toBe(relayUrl);
			await addRelaySecret(walk, name, sim.config.relaySecret);
			await client.waitForWebhook(relayUrl);

			await askQuestion(walk, { inbox: inbox.name, sender: SENDER, to: ASKED, message: MESSAGE });
			const askingId = await savedWorkflowId(page);
			const executionId = await waitingRun(client, askingId);
			expect(sim.campaigns.map((campaign) => campaign.body.recipientInfo[0].msisdn)).toEqual([
				ASKED,
			]);

			// The provider relays the person's signed YES to the Production URL handed over in step 4.
			await sim.sendInbound({ url: relayUrl, from: ASKED, content: 'YES', linked: true });
			const answered = await client.waitForExecution(executionId, 60_000);
			expect(answered.status).toBe('success');
			const asking = await client.getWorkflow(askingId);
			const ask = asking.nodes.find((node) => node.type === TYPES.action)!;
			expect(nodeOutput(answered, ask.name)).toEqual([
				expect.objectContaining({ approved: true, from: ASKED }),
			]);

			console.log(walk.report());
			expect(walk.byStep()).toEqual(EDITOR_ACTIONS_BY_STEP);
			expect(walk.actions).toHaveLength(EDITOR_ACTIONS_TO_FIRST_ANSWER);
			// The docs quote the count this walk makes.
			const docs = readFileSync(path.join(__dirname, '../../docs/conversations.md'), 'utf8');
			expect(docs).toContain(`**${EDITOR_ACTIONS_TO_FIRST_ANSWER} editor actions**`);
		},
		240_000,
	);
});
