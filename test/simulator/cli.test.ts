import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';

import type { LoopbackServer } from '../harness/loopback';
import { parseCliArgs } from './args';
import { DEFAULT_CONFIG, type Simulator, startSimulator } from './index';
import { call, campaign, form, postCampaign, relayReceiver } from './test-helpers';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The project's tsx (what `npx tsx` and the npm scripts run), in its own process group so the
 * whole tree can be stopped; tsx passes signals on to the script and exits with its code.
 */
function tsx(script: string, args: string[]): ChildProcess {
	return spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [script, ...args], {
		cwd: ROOT,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
}

function collect(stream: NodeJS.ReadableStream | null): () => string {
	let text = '';
	stream?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
	return () => text;
}

function firstLine(stdout: () => string, child: ChildProcess): Promise<string> {
	return new Promise((resolve, reject) => {
		const timer = setInterval(() => {
			const newline = stdout().indexOf('\n');
			if (newline >= 0) {
				clearInterval(timer);
				resolve(stdout().slice(0, newline));
			}
		}, 50);
		child.once('exit', (code) => {
			clearInterval(timer);
			reject(new Error(`exited with ${code} before printing a line`));
		});
	});
}

function exited(child: ChildProcess): Promise<number | null> {
	return new Promise((resolve) => {
		if (child.exitCode !== null) resolve(child.exitCode);
		else child.once('exit', (code) => resolve(code));
	});
}

function stopGroup(child: ChildProcess): void {
	try {
		process.kill(-child.pid!, 'SIGTERM');
	} catch {
		// already gone
	}
}

describe('simulator: command line', () => {
	it('defaults to port 8787 and the documented demo settings when given no flags', () => {
		const { config, help } = parseCliArgs([]);
		expect(help).toBe(false);
		expect(config.port).toBe(8787);
		expect(
			Object.entries(config).filter(([key, value]) => key !== 'port' && value !== undefined),
		).toEqual([]);
		expect(DEFAULT_CONFIG).toMatchObject({
			username: 'demo',
			password: 'demo-password',
			apiId: '1234',
			tokenTtl: 120,
		});
	});

	it('parses every flag, including name:type sender pairs', () => {
		const { config } = parseCliArgs([
			'--port',
			'0',
			'--username',
			'u',
			'--password',
			'p',
			'--relay-secret',
			's',
			'--api-id',
			'42',
			'--senders',
			'Acme:0, Intl:1,353851234567:2',
			'--token-ttl',
			'30',
			'--refresh-ttl',
			'60',
			'--relay-url',
			'http://127.0.0.1:5678/webhook/x',
		]);
		expect(config).toEqual({
			port: 0,
			username: 'u',
			password: 'p',
			relaySecret: 's',
			apiId: '42',
			senders: [
				{ name: 'Acme', type: 0 },
				{ name: 'Intl', type: 1 },
				{ name: '353851234567', type: 2 },
			],
			tokenTtl: 30,
			refreshTtl: 60,
			relayUrl: 'http://127.0.0.1:5678/webhook/x',
		});
		expect(DEFAULT_CONFIG.linkReplies).toBe(true);
		expect(parseCliArgs(['--unlinked-replies']).config.linkReplies).toBe(false);
		expect(() => parseCliArgs(['--unlinked-replies=no'])).toThrow();
		expect(() => parseCliArgs(['--senders', 'Acme:7'])).toThrow(/type 0, 1 or 2/);
		expect(() => parseCliArgs(['--token-ttl', 'soon'])).toThrow(/token-ttl/);
		expect(() => parseCliArgs(['--bogus'])).toThrow();
	});

	it('prints one line with its URL, serves requests, logs without secrets and stops on SIGTERM', async () => {
		const child = tsx('test/simulator/cli.ts', [
			'--port',
			'0',
			'--username',
			'cli-user',
			'--password',
			'Cli-Secret-9931',
			'--senders',
			'CliSender:0',
		]);
		const stdout = collect(child.stdout);
		const stderr = collect(child.stderr);
		try {
			const line = await firstLine(stdout, child);
			const url = /^Phonovation simulator listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(
				line,
			)?.[1];
			expect(url).toBeDefined();
			expect((await call(`${url}/health`)).status).toBe(200);
			const token = await call(`${url}/token`, {
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: form({
					grant_type: 'password',
					client_id: 'ismstoken',
					username: 'cli-user',
					password: 'Cli-Secret-9931',
				}),
			});
			expect(token.status).toBe(200);
			const senders = await call(`${url}/api/v2/senderlist`, {
				headers: { authorization: `Bearer ${token.json().access_token}` },
			});
			expect(senders.json()).toEqual([{ name: 'CliSender', type: 0 }]);
			await call(
				`${url}/sendmessage.aspx?user=cli-user&password=Cli-Secret-9931&api_id=1234&to=353871234567&text=x&from=CliSender`,
			);

			child.kill('SIGTERM');
			expect(await exited(child)).toBe(0);
			await expect(call(`${url}/health`)).rejects.toThrow();
			expect(stdout().trim().split('\n')).toHaveLength(1);
			expect(stderr()).toContain('POST /token 200');
			expect(stderr()).toContain('GET /sendmessage.aspx 200');
			expect(stderr()).not.toContain('Cli-Secret-9931');
			expect(stderr()).not.toContain(token.json().access_token);
		} finally {
			stopGroup(child);
		}
	}, 60_000);

	describe('simulator:reply', () => {
		let sim: Simulator;
		let receiver: LoopbackServer;

		beforeEach(async () => {
			const started = await relayReceiver();
			receiver = started.server;
			sim = await startSimulator({ relaySecret: 'Reply-Key', relayUrl: started.url });
		});
		afterEach(async () => {
			await sim.stop();
			await receiver.stop();
		});

		it("posts a signed inbound relay with the given text and prints the relay URL's status", async () => {
			const child = tsx('test/simulator/reply.ts', [
				'YES please',
				'--url',
				sim.url,
				'--from',
				'353870000002',
			]);
			const stdout = collect(child.stdout);
			try {
				expect(await exited(child)).toBe(0);
				expect(stdout().trim().split('\n')).toEqual([
					'Relay URL answered HTTP 200',
					'SMS-NotifyId empty (not linked)',
				]);
				const fields = Object.fromEntries(new URLSearchParams(receiver.requests[0].body));
				expect(fields['SMS-Content']).toBe('YES please');
				expect(fields['SMS-From']).toBe('353870000002');
				expect(fields['SMS-Verify']).toBe(
					createHash('md5').update('353870000002YES pleaseReply-Key').digest('hex'),
				);
			} finally {
				stopGroup(child);
			}
		}, 60_000);

		it('links the reply to the last message sent to --from and prints the notifyId; --unlinked sends none', async () => {
			const sent = await postCampaign(
				sim,
				campaign({
					from: '353851234567',
					recipientInfo: [{ msisdn: '353871234567', notifyId: 'q-1' }],
				}),
			);
			expect(sent.status).toBe(200);
			const run = async (args: string[]) => {
				const child = tsx('test/simulator/reply.ts', [
					'YES',
					'--url',
					sim.url,
					'--from',
					'353871234567',
					...args,
				]);
				const stdout = collect(child.stdout);
				try {
					expect(await exited(child)).toBe(0);
					return stdout().trim().split('\n');
				} finally {
					stopGroup(child);
				}
			};
			expect(await run([])).toEqual([
				'Relay URL answered HTTP 200',
				'SMS-NotifyId q-1 (linked to campaign 1)',
			]);
			expect(await run(['--unlinked'])).toEqual([
				'Relay URL answered HTTP 200',
				'SMS-NotifyId empty (not linked)',
			]);
			expect(await run(['--notify-id', 'mine-7'])).toEqual([
				'Relay URL answered HTTP 200',
				'SMS-NotifyId mine-7 (as given)',
			]);
			const fields = receiver.requests.map((r) => Object.fromEntries(new URLSearchParams(r.body)));
			expect(fields.map((f) => f['SMS-NotifyId'])).toEqual(['q-1', '', 'mine-7']);
			expect(fields[0]['SMS-To']).toBe('353851234567');
			expect(fields[0]['SMS-Verify']).toBe(
				createHash('md5').update('353871234567YESReply-Key').digest('hex'),
			);
		}, 60_000);
	});
	describe('simulator:receipt', () => {
		let sim: Simulator;
		let receiver: LoopbackServer;

		beforeEach(async () => {
			const started = await relayReceiver();
			receiver = started.server;
			sim = await startSimulator({ relaySecret: 'Receipt-Key', relayUrl: started.url });
		});
		afterEach(async () => {
			await sim.stop();
			await receiver.stop();
		});

		const run = async (args: string[]) => {
			const child = tsx('test/simulator/receipt.ts', [...args, '--url', sim.url]);
			const stdout = collect(child.stdout);
			const stderr = collect(child.stderr);
			try {
				return { code: await exited(child), stdout: stdout().trim(), stderr: stderr().trim() };
			} finally {
				stopGroup(child);
			}
		};

		it('posts a signed receipt, delivered or failed, for the last text (to --to) and says which', async () => {
			for (const [msisdn, notifyId] of [
				['353871234567', 'r-1'],
				['353871234568', 'r-2'],
			]) {
				const sent = await postCampaign(
					sim,
					campaign({ from: 'Phonovation', recipientInfo: [{ msisdn, notifyId }] }),
				);
				expect(sent.status).toBe(200);
			}
			expect(await run(['failed'])).toMatchObject({
				code: 0,
				stdout:
					'Relay URL answered HTTP 200\nReceipt: failed for the text to 353871234568, SMS-NotifyId r-2',
			});
			expect(await run(['delivered', '--to', '+353871234567'])).toMatchObject({ code: 0 });
			const fields = receiver.requests.map((r) => Object.fromEntries(new URLSearchParams(r.body)));
			expect(fields.map((f) => [f['SMS-NotifyId'], f['SMS-Success'], f['SMS-To']])).toEqual([
				['r-2', 'False', '353871234568'],
				['r-1', 'True', '353871234567'],
			]);
			expect(fields[1]['SMS-Verify']).toBe(
				createHash('md5').update('r-1trueReceipt-Key').digest('hex'),
			);
		}, 60_000);

		it('refuses an outcome it does not know, and says when there is no text to report on', async () => {
			expect(await run(['read'])).toMatchObject({
				code: 2,
				stderr: expect.stringMatching(/^Usage:/),
			});
			expect(await run(['delivered'])).toMatchObject({
				code: 1,
				stderr: 'The simulator has taken no text with a Notify ID yet',
			});
			expect(receiver.requests).toHaveLength(0);
		}, 60_000);
	});
});
