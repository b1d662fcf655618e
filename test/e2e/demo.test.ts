import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { fetch } from 'undici';

import { SIMULATOR_CREDENTIAL_NAME, TYPES } from './support/environment';
import { ensureN8nInstalled } from './support/install';
import { N8nClient } from './support/n8n-client';
import { packPackage } from './support/pack';
import { REPO_ROOT } from './support/paths';
import { runCommand } from './support/run-command';

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

/** Collects a child's output and resolves once a line matches. */
function waitForOutput(child: ChildProcess, output: { text: string }, pattern: RegExp, timeoutMs: number) {
	return new Promise<RegExpMatchArray>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`No "${pattern}" within ${timeoutMs} ms:\n${output.text}`)), timeoutMs);
		const check = () => {
			const match = output.text.match(pattern);
			if (match) {
				clearTimeout(timer);
				resolve(match);
			}
		};
		child.stdout?.on('data', check);
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`The demo exited (${code}) before "${pattern}":\n${output.text}`));
		});
		check();
	});
}

/** `npm start`, as a person runs it: start, follow the printed instructions, Ctrl-C. */
describe('the npm start demo', () => {
	let demo: ChildProcess | undefined;
	const output = { text: '' };

	beforeAll(async () => {
		// The install and the build are shared with the other e2e files; the demo reuses them.
		await ensureN8nInstalled();
		await packPackage();
	}, 20 * 60_000);

	afterAll(() => {
		if (demo?.pid && demo.exitCode === null) process.kill(-demo.pid, 'SIGKILL');
	});

	it('brings up n8n with the credential and examples, relays a fake reply, and stops on Ctrl-C', async () => {
		demo = spawn(TSX, ['test/demo/start.ts'], { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		const collect = (chunk: Buffer) => (output.text += chunk.toString('utf8'));
		demo.stdout?.on('data', collect);
		demo.stderr?.on('data', collect);

		await waitForOutput(demo, output, /n8n with n8n-nodes-phonovation is running/, 180_000);
		const n8nUrl = output.text.match(/Open\s+(http:\/\/localhost:\d+)/)![1].replace('localhost', '127.0.0.1');
		const simUrl = output.text.match(/Simulator listening on (http:\/\/127\.0\.0\.1:\d+)/)![1];
		const logFile = output.text.match(/n8n's log:\s+(\S+)/)![1];

		const client = await N8nClient.forOwner(n8nUrl);
		const credentials = await client.credentials();
		expect(credentials).toEqual([expect.objectContaining({ name: SIMULATOR_CREDENTIAL_NAME, type: TYPES.credential })]);
		const workflows = await client.workflows();
		expect(workflows.map((w) => [w.name, w.active]).sort()).toEqual([
			['Phonovation: campaign that skips opted-out numbers', false],
			['Phonovation: reply auto-responder with keyword routing', true],
			['Phonovation: scheduled campaign from a list', false],
		]);

		// The printed command, pointed at this simulator.
		const reply = await runCommand(TSX, ['test/simulator/reply.ts', 'YES please', '--url', simUrl], { cwd: REPO_ROOT });
		expect(reply).toContain('Relay URL answered HTTP 200');
		const auto = workflows.find((w) => w.active)!;
		const [execution] = await client.waitForExecutions(auto.id, 1);
		expect(execution.status).toBe('success');
		const campaigns = (await (await fetch(`${simUrl}/_sim/campaigns`)).json()) as Array<{ body: { text: string } }>;
		expect(campaigns.map((c) => c.body.text)).toEqual(['Thanks, your appointment is confirmed. See you then!']);

		const exited = new Promise<number | null>((resolve) => demo!.once('exit', (code) => resolve(code)));
		process.kill(-demo.pid!, 'SIGINT');
		expect(await exited).toBe(0);
		expect(output.text).toContain('Stopped.');
		expect(existsSync(path.dirname(logFile))).toBe(false);
		await expect(fetch(`${n8nUrl}/healthz`)).rejects.toThrow();
	}, 240_000);
});
