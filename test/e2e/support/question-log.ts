import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

import { INBOX_PROTOCOL } from '../../../nodes/Phonovation/resources/conversation/inboxWorkflow';
import type { E2eEnvironment } from './environment';
import { chain } from './workflow-builder';

type Json = Record<string, any>;

/**
 * The Question Log as a local server: what examples/question-log keeps in a Data Table. It gives a
 * recorded question back, finds a number's questions (a JSON array: one item each), and marks a
 * question with the relay that settled it.
 */
export function questionLog(): { server: Server; url: () => string; next: () => Promise<Json> } {
	const waiting: Array<(body: Json) => void> = [];
	const received: Json[] = [];
	const rows: Json[] = [];
	const server = createServer((req, res) => {
		let raw = '';
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => {
			const { action, ...body } = JSON.parse(raw || '{}') as Json;
			let answer: unknown = body;
			if (action === 'settle') {
				const settled = rows.filter((row) => row.reference === body.reference);
				for (const row of settled) row.settledBy = body.settledBy;
				answer = settled;
			} else if (action === 'record') {
				rows.push(body);
				const resolve = waiting.shift();
				if (resolve) resolve(body);
				else received.push(body);
			} else {
				answer = rows.filter(
					(row) =>
						row.phone === body.phone || (body.reference !== '' && row.reference === body.reference),
				);
			}
			// As the inbox: every item marked with the protocol it speaks, one item when no row matched.
			const items = Array.isArray(answer) ? (answer.length ? answer : [{}]) : [answer];
			const marked = items.map((item) => ({ ...(item as Json), inboxProtocol: INBOX_PROTOCOL }));
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(marked));
		});
	});
	server.listen(0, '127.0.0.1');
	return {
		server,
		url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/questions`,
		next: () =>
			received.length
				? Promise.resolve(received.shift()!)
				: new Promise((resolve) => waiting.push(resolve)),
	};
}

/** The Question Log workflow: When Executed by Another Workflow → the log server. */
export function questionLogWorkflow(logUrl: string) {
	return chain(`Question Log ${randomUUID().slice(0, 8)}`, [
		{
			id: randomUUID(),
			name: 'When Asked',
			type: 'n8n-nodes-base.executeWorkflowTrigger',
			typeVersion: 1.1,
			position: [0, 0] as [number, number],
			parameters: { inputSource: 'passthrough' },
		},
		{
			id: randomUUID(),
			name: 'Log',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [220, 0] as [number, number],
			parameters: {
				method: 'POST',
				url: logUrl,
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify($json) }}',
			},
		},
	]);
}

export const logParameter = (id: string) => ({ __rl: true, mode: 'id', value: id });

/** Resolves once n8n has saved the execution as waiting (a wait cannot be resumed before). */
export async function waitingAt(
	env: Pick<E2eEnvironment, 'client'>,
	executionId: string,
): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const { status } = await env.client.execution(executionId);
		if (status === 'waiting') return;
		if (Date.now() > deadline)
			throw new Error(`execution ${executionId} is ${status}, not waiting`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}
