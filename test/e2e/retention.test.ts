// The inbox's nightly clean-up, in a real n8n: texts and replies older than 30 days go, the rows
// that guard against replays (kind "seen", no text) and everything newer stay.
import { randomUUID } from 'node:crypto';

import { useE2eEnvironment } from './support/environment';
import { loadExample } from './support/examples';

const PHONE = '353871234567';
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

describe("the inbox's retention, in n8n", () => {
	const suite = useE2eEnvironment();

	suite.it(
		'the nightly run deletes texts and replies older than 30 days and keeps seen rows and newer ones; with no messages table yet it does nothing',
		async (env) => {
			const { client } = env;
			const inbox = await env.importWorkflow(loadExample('inbox', { webhookId: randomUUID() }));
			const before = await client.runAndWait(inbox.id, 'Every Night at 3:00');
			expect(before.status).toBe('success');

			const table = await client.createDataTable(
				'messages',
				['kind', 'phone', 'key', 'text', 'at', 'arrivedAt', 'messageId', 'turn'].map((name) => ({
					name,
					type: 'string' as const,
				})),
			);
			const row = (kind: string, days: number, text: string) => ({
				kind,
				phone: PHONE,
				key: `key-${kind}-${days}`,
				text,
				at: daysAgo(days),
				arrivedAt: '',
				messageId: `${kind}:${days}`,
				turn: '',
			});
			await client.insertDataTableRows(table.id, [
				row('in', 45, 'an old text'),
				row('out', 31, 'an old reply'),
				row('seen', 400, ''),
				row('in', 29, 'a text of last month'),
				row('out', 0, 'a reply of today'),
			]);
			const run = await client.runAndWait(inbox.id, 'Every Night at 3:00');
			expect(run.status).toBe('success');
			const kept = (await client.dataTableRows(table.id)).map((r) => r.messageId).sort();
			expect(kept).toEqual(['in:29', 'out:0', 'seen:400']);
		},
		180_000,
	);
});
