// The docs' "On your own n8n, step by step", done as a user does them on a fresh n8n 2.41.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import packageJson from '../../package.json';
import { DEFAULT_CONFIG } from '../simulator';
import { TYPES, useE2eEnvironment } from './support/environment';
import { asEditorImports, loadExample } from './support/examples';
import { nodeOutput, type WorkflowJson } from './support/n8n-client';
import { pollUntil } from './support/poll';
import { waitingAt } from './support/question-log';
import { chain, manualTrigger, phonovation } from './support/workflow-builder';

/** A numeric longcode of the account (step 5: people answer to it). */
const LONGCODE = '353870000123';
const ASKED = '353871234567';
const OPTED_OUT = '353861234567';

describe('on a fresh n8n, the steps of docs/conversations.md ask a question that a signed YES answers', () => {
	// Steps 1 and 2: n8n at an address the provider reaches, the packed package installed as a
	// community package and one credential (the environment does both, as the docs say).
	const suite = useE2eEnvironment({
		simulator: { senders: [...DEFAULT_CONFIG.senders, { name: LONGCODE, type: 0 }] },
	});

	let inboxId = '';
	let askingId = '';
	let relayUrl = '';

	suite.it(
		'the inbox the package ships is the whole set-up: it creates its Data Tables and answers the question',
		async ({ n8n, client, sim, importWorkflow, publish }) => {
			expect(await client.dataTables()).toEqual([]);

			// Step 3: import the inbox from the installed package, choose the credential, publish.
			const shipped = JSON.parse(
				readFileSync(
					path.join(
						n8n.userFolder,
						'.n8n/nodes/node_modules',
						packageJson.name,
						'examples/inbox/workflow.json',
					),
					'utf8',
				),
			) as WorkflowJson;
			// The editor gives the imported relay URL a fresh webhook id and path, as here.
			const inbox = await importWorkflow(asEditorImports(shipped));
			// Step 4, the e-mail to the provider: the simulator relays to the Production URL.
			relayUrl = await publish(inbox, 'On Reply or Opt-Out');
			inboxId = inbox.id;

			// Step 5: Send and Wait for Reply in a new workflow, the inbox as its Question Log.
			const asking = await importWorkflow(
				chain('Ask a question', [
					manualTrigger(),
					phonovation('Send and Wait for Reply', {
						resource: 'conversation',
						operation: 'sendAndWait',
						questionLog: {
							__rl: true,
							mode: 'list',
							value: inbox.id,
							cachedResultName: inbox.name,
						},
						from: LONGCODE,
						recipients: ASKED,
						message: 'Reply YES to confirm your appointment tomorrow at 10:00, NO to cancel',
						responseType: 'approval',
					}),
				] as never),
			);
			askingId = asking.id;
			const executionId = await client.runManually(asking.id, 'Manual Trigger');
			await waitingAt({ client }, executionId);
			expect(sim.campaigns.map((c) => c.body.recipientInfo[0].msisdn)).toEqual([ASKED]);

			// The inbox made the table it keeps questions in, on first use.
			const tables = await client.dataTables();
			expect(tables.map((table) => table.name)).toEqual(['questions']);
			const [row] = await client.dataTableRows(tables[0].id);
			expect(row).toMatchObject({
				phone: ASKED,
				reference: expect.stringMatching(`^${executionId}\\.`),
			});

			await sim.sendInbound({ url: relayUrl, from: ASKED, content: 'YES', linked: true });
			const answered = await client.waitForExecution(executionId, 60_000);
			expect(answered.status).toBe('success');
			expect(nodeOutput(answered, 'Send and Wait for Reply')).toEqual([
				expect.objectContaining({ approved: true, from: ASKED }),
			]);
			// The answer was delivered, not auto-answered: keyword replies are off until chosen.
			expect(sim.campaigns).toHaveLength(1);
		},
		180_000,
	);

	suite.it(
		'an opt-out reaching that inbox is stored in the opt-outs table it creates, and texts nothing',
		async ({ client, sim }) => {
			sim.reset();
			expect((await sim.sendOptOut({ url: relayUrl, from: OPTED_OUT })).status).toBe(200);
			const stored = await pollUntil(
				async () => {
					const optOuts = (await client.dataTables()).find((table) => table.name === 'opt-outs');
					const rows = optOuts ? await client.dataTableRows(optOuts.id) : [];
					return rows.length > 0 ? rows.map((row) => row.phone) : undefined;
				},
				'the opt-out stored',
				60_000,
			);
			expect(stored).toEqual([OPTED_OUT]);
			// Every run of the inbox (relays and the Question Log calls it made) succeeded.
			const runs = await pollUntil(
				async () => {
					const listed = await client.executions(inboxId);
					return listed.every((run) => !['new', 'running'].includes(run.status))
						? listed
						: undefined;
				},
				'the inbox runs finished',
				60_000,
			);
			expect(runs.filter((run) => run.status !== 'success')).toEqual([]);
			expect(sim.campaigns).toEqual([]);
		},
		120_000,
	);

	suite.it(
		'a table whose name contains "questions", changed last, does not stop the next question',
		async ({ client, sim }) => {
			// n8n's Reuse Existing Tables matches names with LIKE and takes the newest: this one.
			await client.createDataTable('old questions', [{ name: 'note', type: 'string' }]);
			sim.reset();
			const executionId = await client.runManually(askingId, 'Manual Trigger');
			await waitingAt({ client }, executionId);
			expect(sim.campaigns).toHaveLength(1);
			const questions = (await client.dataTables()).find((table) => table.name === 'questions');
			const rows = await client.dataTableRows(questions!.id);
			expect(rows.map((row) => String(row.reference).split('.')[0])).toContain(executionId);
		},
		120_000,
	);

	suite.it(
		'a table named "opt-outs-old", changed last, never becomes the suppression list',
		async ({ client, sim }) => {
			const old = await client.createDataTable('opt-outs-old', [{ name: 'phone', type: 'string' }]);
			const from = '353861234568';
			expect((await sim.sendOptOut({ url: relayUrl, from })).status).toBe(200);
			const optOuts = (await client.dataTables()).find((table) => table.name === 'opt-outs')!;
			const stored = await pollUntil(
				async () => {
					const phones = (await client.dataTableRows(optOuts.id)).map((row) => row.phone);
					return phones.includes(from) ? phones : undefined;
				},
				'the second opt-out stored',
				60_000,
			);
			expect(stored).toEqual([OPTED_OUT, from]);
			expect(await client.dataTableRows(old.id)).toEqual([]);
		},
		120_000,
	);

	suite.it(
		'the campaign example stops, sending nothing, while only a table named like opt-outs exists; with none at all it creates it',
		async ({ client, sim, importWorkflow }) => {
			const tables = async () => await client.dataTables();
			const named = async (name: string) => (await tables()).find((table) => table.name === name);
			await client.deleteDataTable((await named('opt-outs'))!.id);
			expect((await named('opt-outs-old'))?.name).toBe('opt-outs-old');
			sim.reset();
			const campaign = await importWorkflow(loadExample('campaign-excluding-opt-outs'));
			const stopped = await client.runAndWait(campaign.id, 'Run Campaign');
			expect(stopped.status).toBe('error');
			expect(sim.campaigns).toEqual([]);
			expect(await named('opt-outs')).toBeUndefined();

			await client.deleteDataTable((await named('opt-outs-old'))!.id);
			const sent = await client.runAndWait(campaign.id, 'Run Campaign');
			expect(sent.status).toBe('success');
			expect(sim.campaigns).toHaveLength(1);
			expect(await named('opt-outs')).toBeDefined();
		},
		120_000,
	);
});
