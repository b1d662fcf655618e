import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { request } from 'undici';

import { listExecutions, rawExecutionText } from './support/load-executions';
import { useE2eEnvironment } from './support/environment';
import { nodeError, nodeOutput } from './support/n8n-client';
import {
	chain,
	code,
	manualTrigger,
	phonovation,
	phonovationTrigger,
} from './support/workflow-builder';

/** Values that cannot occur by chance anywhere in n8n's data or log. */
const PASSWORD = `pw-${randomUUID()}`;
const WRONG_PASSWORD = `wrong-pw-${randomUUID()}`;
const RELAY_SECRET = `relay-secret-${randomUUID()}`;
const WEBHOOK_ID = randomUUID();
/** Not secret, and only ever in run data: proves the search below reads what the trigger output. */
const REPLY_MARKER = `reply-${randomUUID().slice(0, 8)}`;

interface TokenRecorder {
	url: string;
	/** Every access and refresh token the token server issued through this recorder. */
	issued: string[];
	stop(): Promise<void>;
}

/**
 * A pass-through in front of the simulator's token endpoint that remembers the tokens it hands
 * out, so the test knows exactly which token values n8n received.
 */
async function startTokenRecorder(tokenServer: string): Promise<TokenRecorder> {
	const issued: string[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				const { host: _host, ...headers } = req.headers;
				const answer = await request(`${tokenServer}${req.url ?? '/'}`, {
					method: (req.method ?? 'POST') as 'POST',
					headers: headers as Record<string, string>,
					body: Buffer.concat(chunks),
				});
				const text = await answer.body.text();
				try {
					const parsed = JSON.parse(text) as { access_token?: string; refresh_token?: string };
					for (const token of [parsed.access_token, parsed.refresh_token])
						if (token) issued.push(token);
				} catch {
					// not a token answer
				}
				res.writeHead(answer.statusCode, {
					'content-type': String(answer.headers['content-type'] ?? 'text/plain'),
				});
				res.end(text);
			})().catch(() => res.destroy());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		issued,
		stop: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

/**
 * n8n's whole log up to now: asks for an unknown webhook path, which n8n logs (debug) as it
 * arrives, and waits until that line is in the file. Everything n8n logged before is then there.
 */
async function logUpToMarker(n8n: {
	logFile: string;
	webhookUrl(path: string): string;
}): Promise<string> {
	const marker = `log-marker-${randomUUID()}`;
	await (await request(n8n.webhookUrl(marker))).body.text();
	for (;;) {
		const log = readFileSync(n8n.logFile, 'utf8');
		if (log.includes(`for path "${marker}"`)) return log;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

const sendWorkflow = (name: string, onError?: string) =>
	chain(name, [
		manualTrigger(),
		code(
			'Customers',
			'return [{ json: { phone: "0871234567" } }, { json: { phone: "0861234567" } }];',
		),
		{
			...phonovation('Send Campaign', {
				resource: 'campaign',
				operation: 'send',
				from: 'Phonovation',
				text: 'Your order has shipped.',
				recipients: '={{ $json.phone }}',
			}),
			...(onError ? { onError } : {}),
		},
	]);

/**
 * Issue 7, "Secrets": a full send, a failed login and failed sends in real n8n, then a search of
 * every stored execution and n8n's whole log for the password, the relay secret and the tokens.
 */
describe('secrets stay out of n8n’s executions and log', () => {
	const suite = useE2eEnvironment({
		simulator: { password: PASSWORD, relaySecret: RELAY_SECRET },
		// The most n8n ever writes about an execution.
		n8nEnv: { N8N_LOG_LEVEL: 'debug' },
	});
	let recorder: TokenRecorder;

	beforeAll(async () => {
		recorder = await startTokenRecorder(suite.env().sim.url);
	});
	afterAll(async () => {
		await recorder?.stop();
	});

	suite.it(
		'a full send, a failed login and failed sends leave no password, secret or token behind',
		async (env) => {
			const good = await env.createCredential('Phonovation (secrets)', { authUrl: recorder.url });
			const wrong = await env.createCredential('Phonovation (wrong password)', {
				authUrl: recorder.url,
				password: WRONG_PASSWORD,
			});
			const send = await env.importWorkflow(sendWorkflow('Send (secrets)'), good);
			const sendWithErrorItems = await env.importWorkflow(
				sendWorkflow('Send with error items (secrets)', 'continueRegularOutput'),
				good,
			);
			const failedLogin = await env.importWorkflow(
				sendWorkflow('Send with a wrong password (secrets)'),
				wrong,
			);
			const replies = await env.importWorkflow(
				chain('Replies (secrets)', [
					phonovationTrigger(
						'On Reply',
						{ events: ['inbound'], options: { includeRaw: true } },
						WEBHOOK_ID,
					),
				]),
				good,
			);
			const repliesUrl = await env.publish(replies, 'On Reply');
			env.sim.reset();

			const sent = await env.client.runAndWait(send.id, 'Manual Trigger');
			expect(sent.status).toBe('success');
			expect(nodeOutput(sent, 'Send Campaign')[0]).toMatchObject({ success: true });
			expect(env.sim.campaigns).toHaveLength(1);

			const refused = await env.client.runAndWait(failedLogin.id, 'Manual Trigger');
			expect(refused.status).toBe('error');
			expect(nodeError(refused, 'Send Campaign')?.message).toMatch(
				/refused the username or password/i,
			);

			env.sim.injectFault('/api/v2/Campaign', { kind: 'status', status: 500 });
			const failedSend = await env.client.runAndWait(send.id, 'Manual Trigger');
			expect(failedSend.status).toBe('error');
			expect(nodeError(failedSend, 'Send Campaign')?.message).toContain('500');

			env.sim.injectFault('/api/v2/Campaign', { kind: 'status', status: 429, retryAfter: 90 });
			const errorItems = await env.client.runAndWait(sendWithErrorItems.id, 'Manual Trigger');
			expect(errorItems.status).toBe('success');
			const items = nodeOutput(errorItems, 'Send Campaign');
			expect(items).toHaveLength(2);
			for (const item of items) expect(String(item.error)).toContain('429');

			// The forged relay first, the genuine one last: once the genuine one's execution exists,
			// an execution the forged one had wrongly started would already be counted below.
			expect(
				(await env.sim.sendInbound({ url: repliesUrl, content: 'forged', wrongSignature: true }))
					.status,
			).toBe(401);
			expect(
				(await env.sim.sendInbound({ url: repliesUrl, content: `YES ${REPLY_MARKER}` })).status,
			).toBe(200);
			await env.client.waitForExecutions(replies.id, 1);

			// One login for the good credential (its token then served every request), one refused.
			expect(env.sim.campaigns).toHaveLength(1);
			const logins = env.sim.requests.filter((r) => r.path === '/token').map((r) => r.status);
			expect(logins.filter((status) => status === 200)).toHaveLength(1);
			expect(logins).toContain(401);
			expect(recorder.issued.length).toBe(2);
			const secrets = {
				password: PASSWORD,
				wrongPassword: WRONG_PASSWORD,
				relaySecret: RELAY_SECRET,
			};
			const tokens = Object.fromEntries(
				recorder.issued.map((token, i) => [`issued token ${i + 1}`, token]),
			);
			const needles = Object.entries({ ...secrets, ...tokens });

			const executions = await listExecutions(env.client, { status: ['success', 'error'] });
			expect(executions).toHaveLength(5);
			let storedWithReply = 0;
			for (const execution of executions) {
				const stored = await rawExecutionText(env.client, String(execution.id));
				if (stored.includes(REPLY_MARKER)) storedWithReply++;
				const found = needles.filter(([, value]) => stored.includes(value)).map(([name]) => name);
				expect({ execution: execution.id, found }).toEqual({ execution: execution.id, found: [] });
			}
			expect(storedWithReply).toBe(1);

			const log = await logUpToMarker(env.n8n);
			expect(log).toContain('Received webhook "POST"');
			expect(needles.filter(([, value]) => log.includes(value)).map(([name]) => name)).toEqual([]);
		},
		180_000,
	);
});
