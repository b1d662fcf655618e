import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { fetch, request } from 'undici';

import { DEFAULT_CONFIG, type InboundResult } from '../simulator';
import { type E2eEnvironment, useE2eEnvironment } from './support/environment';
import { createExampleDataTables, loadExample, publishQuestionLog } from './support/examples';
import { LAZY_ISOLATES_N8N_ENV } from './support/load-settings';
import { type Execution, nodeOutput } from './support/n8n-client';
import { waitingAt } from './support/question-log';
import { chain, webhook } from './support/workflow-builder';

/**
 * The seams of the Question Log in a real n8n: rows another workflow (or anyone who can write the
 * `questions` Data Table) put there, a signed reply posted again, and a proxy in front of n8n
 * that answers a resume URL with a redirect, or with a 502 after n8n took the answer. The shipped
 * examples play the user's side: question-log, inbox and appointment-confirmation.
 */

/** A numeric longcode of the account: replies can come back to it. */
const LONGCODE = '353870000123';
const INBOX_WEBHOOK_ID = randomUUID();
/** The inbox's runs a relay started, not the Question Log calls it makes to itself. */
const RELAYS = { mode: 'webhook' };

/** A local server standing in for another host: it records every request and answers 200. */
function otherHost(): { server: Server; requests: string[]; origin: () => string } {
	const requests: string[] = [];
	const server = createServer((req, res) => {
		requests.push(`${req.method} ${req.url}`);
		req.resume();
		res.writeHead(200, { 'content-type': 'application/json' }).end('{"resumed":true}');
	});
	server.listen(0, '127.0.0.1');
	return {
		server,
		requests,
		origin: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
	};
}

/** What the proxy does with the next POST to a waiting webhook; every other request passes. */
type ProxyTrick = 'redirect' | 'badGatewayAfterN8n';

/**
 * A reverse proxy in front of n8n, as a user's nginx or load balancer would be: n8n's resume URLs
 * name it (N8N_WEBHOOK_URL). `trick` plays one answer a proxy can give a resume URL, once.
 */
function proxyInFront(n8nOrigin: () => string, elsewhereOrigin: () => string) {
	const proxy = {
		trick: undefined as ProxyTrick | undefined,
		tricked: [] as string[],
		origin: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		server: undefined as unknown as Server,
	};
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', async () => {
			const path = req.url ?? '/';
			const trick =
				req.method === 'POST' && path.startsWith('/webhook-waiting/') ? proxy.trick : undefined;
			if (trick) {
				proxy.trick = undefined;
				proxy.tricked.push(`${trick} ${path}`);
			}
			if (trick === 'redirect') {
				res.writeHead(307, { location: `${elsewhereOrigin()}${path}` }).end();
				return;
			}
			const { host: _host, connection: _connection, ...headers } = req.headers;
			try {
				const answer = await request(`${n8nOrigin()}${path}`, {
					method: req.method as 'GET',
					headers,
					body: chunks.length ? Buffer.concat(chunks) : undefined,
				});
				const body = Buffer.from(await answer.body.arrayBuffer());
				if (trick === 'badGatewayAfterN8n') {
					res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1>');
					return;
				}
				const passed = Object.fromEntries(
					Object.entries(answer.headers).filter(
						([name]) => !['transfer-encoding', 'connection', 'content-length'].includes(name),
					),
				);
				res.writeHead(answer.statusCode, passed).end(body);
			} catch {
				res.writeHead(502).end();
			}
		});
	});
	server.listen(0, '127.0.0.1');
	proxy.server = server;
	return proxy;
}

describe('the Question Log seams in n8n: forged rows, replays and a proxy in front', () => {
	const elsewhere = otherHost();
	// n8n writes its resume URLs with the proxy's address, fixed before n8n starts.
	const n8nEnv: Record<string, string> = { ...LAZY_ISOLATES_N8N_ENV };
	const proxy = proxyInFront(
		() => suite.env().n8n.url.replace(/\/$/, ''),
		() => elsewhere.origin(),
	);
	beforeAll(async () => {
		if (!proxy.server.listening)
			await new Promise((resolve) => proxy.server.once('listening', resolve));
		n8nEnv.N8N_WEBHOOK_URL = `${proxy.origin()}/`;
	});
	const suite = useE2eEnvironment({
		simulator: { senders: [...DEFAULT_CONFIG.senders, { name: LONGCODE, type: 0 }] },
		n8nEnv,
	});
	let questionLog: string;
	let inbox: { id: string; url: string };
	let questionsTable: string;
	let rowsPath: string;
	/** Executions a test left waiting, and the forged rows it put in the log: cleared after it. */
	const leftWaiting: string[] = [];
	const forgedUrls: string[] = [];

	beforeAll(async () => {
		const env = suite.env();
		await createExampleDataTables(env.client);
		const questions = (await env.client.dataTables()).find((t) => t.name === 'questions')!;
		questionsTable = questions.id;
		rowsPath = `/rest/projects/${questions.projectId}/data-tables/${questions.id}`;
		questionLog = await publishQuestionLog(env);
		const example = loadExample('inbox', { questionLog, webhookId: INBOX_WEBHOOK_ID });
		const workflow = await env.importWorkflow({ ...example, name: `${example.name} (seams)` });
		inbox = { id: workflow.id, url: await env.publish(workflow, 'On Reply or Opt-Out') };
	}, 60_000);

	afterEach(async () => {
		const { client } = suite.env();
		for (const id of leftWaiting.splice(0)) {
			if ((await client.execution(id)).status === 'waiting')
				await client.call('POST', `/rest/executions/${id}/stop`);
		}
		for (const url of forgedUrls.splice(0)) {
			const filter = { type: 'and', filters: [{ columnName: 'resumeUrl', value: url }] };
			await client.call(
				'DELETE',
				`${rowsPath}/rows?filter=${encodeURIComponent(JSON.stringify(filter))}`,
			);
		}
	}, 60_000);

	afterAll(() => {
		elsewhere.server.close();
		proxy.server.close();
	});

	/** The appointment example asking `phone` from the longcode. */
	async function appointmentFor(env: E2eEnvironment, phone: string): Promise<string> {
		const example = loadExample('appointment-confirmation', { sender: LONGCODE, questionLog });
		const nodes = example.nodes.map((node) =>
			node.name === 'Appointment'
				? (JSON.parse(JSON.stringify(node).replace('353871234567', phone)) as typeof node)
				: node,
		);
		return (await env.importWorkflow({ ...example, name: `${example.name} ${phone}`, nodes })).id;
	}

	/** Runs the asking workflow; once it waits: its execution, Notify ID and logged resume URL. */
	async function asked(env: E2eEnvironment, workflowId: string, phone: string) {
		const executionId = await env.client.runManually(workflowId, 'Start');
		leftWaiting.push(executionId);
		await waitingAt(env, executionId);
		const text = env.sim.campaigns.map((c) => c.body.recipientInfo[0]).at(-1);
		expect(text).toEqual({
			msisdn: phone,
			notifyId: expect.stringMatching(new RegExp(`^${executionId}\\.0\\.`)),
		});
		const reference = text.notifyId as string;
		const rows = await env.client.dataTableRows(questionsTable);
		const row = rows.find((r) => r.reference === reference);
		return { executionId, reference, resumeUrl: String(row?.resumeUrl) };
	}

	/** Puts a row in the `questions` Data Table through n8n's REST API, as another user could. */
	async function forgeRow(
		env: E2eEnvironment,
		row: { reference: string; phone: string },
		url: string,
	) {
		forgedUrls.push(url);
		await env.client.call('POST', `${rowsPath}/insert`, {
			data: [
				{
					...row,
					resumeUrl: url,
					// Newer than the genuine question: it would be tried first if it were usable.
					askedAt: new Date().toISOString(),
					expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
					waitsFor: '',
				},
			],
			returnType: 'id',
		});
	}

	/** Does `send`, then returns the inbox run it started, finished. */
	async function inboxRun(env: E2eEnvironment, send: () => Promise<{ status: number }>) {
		const before = (await env.client.executions(inbox.id, 100, RELAYS)).length;
		expect((await send()).status).toBe(200);
		return (await env.client.waitForExecutions(inbox.id, before + 1, 60_000, RELAYS)).at(-1)!;
	}

	const delivered = (run: Execution) => nodeOutput(run, 'Deliver to Waiting Question');

	suite.it(
		'forged rows (a dot-segment to a production webhook, another host) get nothing and are reported; the genuine question gets the reply',
		async (env) => {
			const { client, sim } = env;
			sim.reset();
			elsewhere.requests.length = 0;
			const phone = '353871230101';
			const question = await asked(env, await appointmentFor(env, phone), phone);
			// What `/webhook-waiting/../webhook/<path>` resolves to: a workflow of this n8n.
			const catcherPath = randomUUID();
			const catcher = await env.importWorkflow(chain('Catcher', [webhook(catcherPath)]));
			await client.publishWorkflow(catcher.id);
			const genuine = new URL(question.resumeUrl);
			await client.waitForWebhook(`${genuine.origin}/webhook/${catcherPath}`);
			const signature = genuine.searchParams.get('signature')!;
			const dotSegment = `${genuine.origin}/webhook-waiting/../webhook/${catcherPath}?signature=${signature}`;
			const offHost = question.resumeUrl.replace(genuine.origin, elsewhere.origin());
			// Both copy the genuine row (its Notify ID and number), so a reply linked to it finds them.
			for (const url of [dotSegment, offHost])
				await forgeRow(env, { reference: question.reference, phone }, url);

			const run = await inboxRun(env, () =>
				sim.sendInbound({ url: inbox.url, from: phone, content: 'YES' }),
			);

			expect(delivered(run)).toEqual([
				expect.objectContaining({
					resumed: true,
					question: { reference: question.reference, executionId: question.executionId },
					unusableRows: expect.arrayContaining([
						{ reference: question.reference, reason: 'a dot-segment (. or ..) in the path' },
						{
							reference: question.reference,
							reason: expect.stringMatching(/^not this n8n/),
						},
					]),
				}),
			]);
			expect(delivered(run)[0].unusableRows).toHaveLength(2);
			const answered = await client.waitForExecution(question.executionId, 60_000);
			expect(answered.status).toBe('success');
			expect(nodeOutput(answered, 'Ask to Confirm')).toEqual([
				expect.objectContaining({ approved: true, from: phone }),
			]);
			expect(elsewhere.requests).toEqual([]);
			expect(await client.executions(catcher.id)).toEqual([]);
			expect(sim.campaigns).toHaveLength(1);
			// The dot-segment URL, as any HTTP client resolves it, does reach the catcher.
			await fetch(new URL(dotSegment), { method: 'POST' }).then((r) => r.body?.cancel());
			expect(await client.waitForExecutions(catcher.id, 1)).toHaveLength(1);
			await client.unpublishWorkflow(catcher.id);
		},
	);

	suite.it(
		"the same signed YES posted again to the letter leaves the person's next question waiting; their NO then answers it",
		async (env) => {
			const { client, sim } = env;
			sim.reset();
			const phone = '353871230104';
			const asking = await appointmentFor(env, phone);
			const first = await asked(env, asking, phone);
			let yes: InboundResult | undefined;
			const yesRun = await inboxRun(env, async () => {
				yes = await sim.sendInbound({
					url: inbox.url,
					from: phone,
					to: LONGCODE,
					content: 'YES',
					linked: false,
				});
				return yes;
			});
			expect(delivered(yesRun)).toEqual([
				expect.objectContaining({
					resumed: true,
					question: { reference: first.reference, executionId: first.executionId },
				}),
			]);
			const answered = await client.waitForExecution(first.executionId, 60_000);
			expect(nodeOutput(answered, 'Ask to Confirm')).toEqual([
				expect.objectContaining({ approved: true, from: phone }),
			]);
			// The relay exactly as the provider sent it (same signature, same time stamp), posted
			// again before the next question is asked and once it waits: neither answers it.
			const replayed = () =>
				inboxRun(env, () =>
					fetch(yes!.sent.url, {
						method: 'POST',
						headers: { 'content-type': yes!.sent.contentType },
						body: yes!.sent.body,
					}).then(async (response) => ({ status: response.status, body: await response.text() })),
				);
			const early = await replayed();
			const next = await asked(env, asking, phone);
			const late = await replayed();
			for (const replay of [early, late]) {
				expect(replay.status).toBe('success');
				expect(delivered(replay).filter((item) => item.resumed)).toEqual([]);
			}
			await new Promise((resolve) => setTimeout(resolve, 1_000));
			expect((await client.execution(next.executionId)).status).toBe('waiting');

			await sim.sendInbound({
				url: inbox.url,
				from: phone,
				to: LONGCODE,
				content: 'NO',
				linked: false,
			});
			const declined = await client.waitForExecution(next.executionId, 60_000);
			expect(declined.status).toBe('success');
			expect(nodeOutput(declined, 'Ask to Confirm')).toEqual([
				expect.objectContaining({ approved: false, from: phone }),
			]);
			expect(nodeOutput(declined, 'Answer', 1)).toHaveLength(1);
			// Two questions texted, and no auto-reply.
			expect(sim.campaigns.map((c) => c.body.recipientInfo[0].notifyId)).toEqual([
				first.reference,
				next.reference,
			]);
		},
	);

	suite.it(
		'a proxy answering the resume URL with a 307: not followed, the item says unconfirmed, the question still waits, no auto-reply',
		async (env) => {
			const { client, sim } = env;
			sim.reset();
			elsewhere.requests.length = 0;
			const phone = '353871230105';
			const question = await asked(env, await appointmentFor(env, phone), phone);
			expect(new URL(question.resumeUrl).origin).toBe(proxy.origin());
			proxy.tricked.length = 0;
			proxy.trick = 'redirect';
			const run = await inboxRun(env, () =>
				sim.sendInbound({ url: inbox.url, from: phone, content: 'YES' }),
			);
			expect(proxy.tricked).toEqual([expect.stringMatching(/^redirect \/webhook-waiting\//)]);
			expect(delivered(run)).toEqual([
				expect.objectContaining({
					resumed: false,
					unconfirmed: true,
					reason: expect.stringMatching(/307, a redirect \(not followed\)/),
				}),
			]);
			expect(elsewhere.requests).toEqual([]);
			expect((await client.execution(question.executionId)).status).toBe('waiting');
			expect(sim.campaigns).toHaveLength(1);
		},
	);

	suite.it(
		'a 502 after n8n took the answer: the item says unconfirmed, the older question is not offered it and still waits, no auto-reply',
		async (env) => {
			const { client, sim } = env;
			sim.reset();
			const phone = '353871230106';
			const asking = await appointmentFor(env, phone);
			const older = await asked(env, asking, phone);
			const newer = await asked(env, asking, phone);
			proxy.tricked.length = 0;
			proxy.trick = 'badGatewayAfterN8n';
			// Not linked: offered to the newest question first, then (were it refused) the older one.
			const run = await inboxRun(env, () =>
				sim.sendInbound({
					url: inbox.url,
					from: phone,
					to: LONGCODE,
					content: 'YES',
					linked: false,
				}),
			);
			expect(proxy.tricked).toEqual([
				expect.stringMatching(
					new RegExp(`^badGatewayAfterN8n /webhook-waiting/${newer.executionId}/`),
				),
			]);
			expect(delivered(run)).toEqual([
				expect.objectContaining({
					resumed: false,
					unconfirmed: true,
					question: { reference: newer.reference, executionId: newer.executionId },
				}),
			]);
			const answered = await client.waitForExecution(newer.executionId, 60_000);
			expect(nodeOutput(answered, 'Ask to Confirm')).toEqual([
				expect.objectContaining({ approved: true, from: phone }),
			]);
			expect((await client.execution(older.executionId)).status).toBe('waiting');
			// The two questions, and no auto-reply.
			expect(sim.campaigns.map((c) => c.body.recipientInfo[0].notifyId)).toEqual([
				older.reference,
				newer.reference,
			]);
		},
	);
});
