// An inbox of an earlier version (kept as a fixture), and the inbox of this package re-imported over
// it, in a real n8n: the handshake refuses the old copy before anything is sent, and the re-import
// keeps the workflow's id, every row and the waiting question.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { INBOX_PROTOCOL } from '../../nodes/Phonovation/resources/conversation/inboxWorkflow';
import { DEFAULT_CONFIG } from '../simulator';
import { useE2eEnvironment, withCredential } from './support/environment';
import { asImported, loadExample } from './support/examples';
import { nodeError, nodeOutput, type WorkflowJson } from './support/n8n-client';
import { pollUntil, sentUntilTaken } from './support/poll';
import { rowIdsByTable, rowsLost } from './support/data-table-rows';

const LONGCODE = '353870000123';
const PERSON = '353871234567';
const RELAYS = { mode: 'webhook' };

/** The inbox as every version before the handshake shipped it (protocol 1). */
const EARLIER_INBOX = JSON.parse(
	readFileSync(path.join(__dirname, 'fixtures', 'inbox-protocol-1.json'), 'utf8'),
) as WorkflowJson;

describe('an inbox of an earlier version, and the inbox re-imported over it, in n8n', () => {
	const suite = useE2eEnvironment({
		simulator: { senders: [...DEFAULT_CONFIG.senders, { name: LONGCODE, type: 0 }] },
	});

	suite.it(
		'the earlier inbox is refused with the re-import message and texts nothing; re-imported over it, no row is lost and the waiting question is answered once',
		async (env) => {
			const { client, sim } = env;
			sim.reset();
			const webhookId = randomUUID();
			// At the Production URL an inbox that began with a Phonovation Trigger had (its README's upgrade step).
			const setUp = { webhookId, keywordReplies: false, relayPath: `${webhookId}/phonovation` };
			const inbox = await env.importWorkflow(loadExample('inbox', setUp));
			const url = await env.publish(inbox, 'On Reply or Opt-Out');
			const asking = await env.importWorkflow(
				loadExample('appointment-confirmation', { sender: LONGCODE, questionLog: inbox.id }),
			);
			let relays = 0;
			const nextRelayRun = async () =>
				(await client.waitForExecutions(inbox.id, ++relays, 60_000, RELAYS)).at(-1)!;

			// Live rows: a stranger's text, an opt-out, and a question waiting for its answer.
			await sim.sendInbound({ url, from: '353870000001', content: 'hello', linked: false });
			expect((await nextRelayRun()).status).toBe('success');
			await sim.sendOptOut({ url, from: '353870000002', content: 'STOP' });
			expect((await nextRelayRun()).status).toBe('success');
			const waiting = await client.runManually(asking.id, 'Start');
			await pollUntil(
				async () => ((await client.execution(waiting)).status === 'waiting' ? true : undefined),
				'the question waiting',
				60_000,
			);
			const before = await rowIdsByTable(client);
			expect(Object.keys(before).sort()).toEqual(['messages', 'opt-outs', 'questions']);
			expect(sim.campaigns).toHaveLength(1);

			// The user's copy is an earlier inbox (the package was updated, the inbox was not).
			await client.replaceWorkflow(
				inbox.id,
				withCredential(
					asImported(EARLIER_INBOX, 'inbox', { webhookId, keywordReplies: false }),
					env.credential,
				),
			);
			await env.publish(inbox, 'On Reply or Opt-Out');
			expect(
				await sentUntilTaken(() =>
					sim.sendInbound({ url, from: PERSON, content: 'YES', linked: true }),
				),
			).toBe(200);
			const refused = await nextRelayRun();
			expect(refused.status).toBe('error');
			expect(nodeError(refused, 'Deliver to Waiting Question')?.message).toMatch(
				new RegExp(
					`^Question Log: the workflow is an inbox of an earlier n8n-nodes-phonovation, or not the inbox \\(it does not answer in inbox protocol ${INBOX_PROTOCOL}\\): this node stopped there, before texting or resuming anything more`,
				),
			);
			expect(nodeError(refused, 'Deliver to Waiting Question')?.description).toMatch(
				new RegExp(
					`^To re-import the inbox over workflow ${inbox.id}: .*rows, waiting questions included, are kept`,
				),
			);
			// An opt-out is still stored by the earlier copy: it is written before the log is asked.
			expect(
				await sentUntilTaken(() => sim.sendOptOut({ url, from: '353870000003', content: 'STOP' })),
			).toBe(200);
			await nextRelayRun();
			expect((await client.execution(waiting)).status).toBe('waiting');
			expect(sim.campaigns).toHaveLength(1);

			// Re-imported over it: same id, so the asking workflow's Question Log still points at it.
			await client.replaceWorkflow(
				inbox.id,
				withCredential(loadExample('inbox', setUp), env.credential),
			);
			await env.publish(inbox, 'On Reply or Opt-Out');
			expect(
				await sentUntilTaken(() =>
					sim.sendInbound({ url, from: PERSON, content: 'YES', linked: true }),
				),
			).toBe(200);
			expect((await nextRelayRun()).status).toBe('success');
			const answered = await client.waitForExecution(waiting, 60_000);
			expect(answered.status).toBe('success');
			expect(nodeOutput(answered, 'Ask to Confirm')).toEqual([
				expect.objectContaining({ approved: true, from: PERSON }),
			]);
			// No row lost: every row of every table is still there, and the opt-out the earlier copy stored.
			expect(rowsLost(before, await rowIdsByTable(client))).toEqual({});
			const optOuts = (await client.dataTables()).find((table) => table.name === 'opt-outs')!;
			expect((await client.dataTableRows(optOuts.id)).map((row) => row.phone).sort()).toEqual([
				'353870000002',
				'353870000003',
			]);
			// Answered once: the one question and, after it, nothing texted by the inbox.
			expect(sim.campaigns).toHaveLength(1);
		},
		300_000,
	);
});
