import { existsSync } from 'node:fs';
import path from 'node:path';

import { fetch } from 'undici';

import { oneDemoAtATime, type RunningDemo, startDemo } from './support/demo-process';
import { ensureN8nInstalled } from './support/install';
import { packPackage } from './support/pack';
import { isPortFree } from './support/ports';
import { commandLine, groupMembers, isRunning, pidsWithEnv } from './support/processes';

/** How long the demo may take to be gone entirely (n8n's graceful shutdown is 10 s at most). */
const GONE_WITHIN_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whatever the demo left behind: listening ports, processes of either group, its temp folder. */
async function leftovers(
	demo: RunningDemo,
	ports: { n8n: number; sim: number },
): Promise<string[]> {
	const found: string[] = [];
	if (!(await isPortFree(ports.n8n))) found.push(`n8n's port ${ports.n8n} is in use`);
	if (!(await isPortFree(ports.sim))) found.push(`the simulator's port ${ports.sim} is in use`);
	if (isRunning(demo.n8nPid)) found.push(`n8n (pid ${demo.n8nPid}) is running`);
	for (const pid of groupMembers(demo.n8nPid))
		found.push(`n8n's process group: ${pid} ${commandLine(pid)}`);
	for (const pid of groupMembers(demo.pid))
		found.push(`npm start's process group: ${pid} ${commandLine(pid)}`);
	if (existsSync(path.dirname(demo.logFile)))
		found.push(`the temp folder ${path.dirname(demo.logFile)} exists`);
	return found;
}

interface Way {
	name: string;
	stop(demo: RunningDemo): Promise<void>;
	/** Whether the demo itself lives to say "Stopped." (not when it is killed). */
	says: boolean;
}

const WAYS: Way[] = [
	{
		name: 'SIGTERM to the npm process (an IDE stop button, a process manager)',
		stop: async (demo) => demo.signal('SIGTERM'),
		says: true,
	},
	{
		name: 'SIGHUP to the npm process, which npm does not pass on',
		stop: async (demo) => demo.signal('SIGHUP'),
		says: true,
	},
	{
		name: 'SIGHUP to its process group (the terminal was closed)',
		stop: async (demo) => demo.signal('SIGHUP', { group: true }),
		says: true,
	},
	{
		name: 'Ctrl-C twice',
		stop: async (demo) => {
			demo.signal('SIGINT', { group: true });
			await sleep(200);
			// n8n may already be gone, and every process of the group with it.
			try {
				demo.signal('SIGINT', { group: true });
			} catch {
				// nothing left to interrupt
			}
		},
		says: true,
	},
	{
		name: 'SIGKILL to its process group (the e2e tests clean up so)',
		stop: async (demo) => demo.signal('SIGKILL', { group: true }),
		says: false,
	},
];

// Outside the describe: the lock is taken before its hooks and let go after them.
oneDemoAtATime();

/** `npm start` stopped in every way people (and tools) stop it: n8n and the simulator go too. */
describe('stopping the npm start demo', () => {
	let demo: RunningDemo | undefined;

	beforeAll(async () => {
		// The install and the build are shared with the other e2e files; the demo reuses them.
		await ensureN8nInstalled();
		await packPackage();
	}, 20 * 60_000);

	afterEach(() => {
		demo?.kill();
		demo = undefined;
	});

	it.each(WAYS)(
		'leaves nothing running after $name',
		async ({ name, stop, says }) => {
			const started = Date.now();
			demo = await startDemo();
			const running = demo;
			const ports = {
				n8n: Number(new URL(running.n8nUrl).port),
				sim: Number(new URL(running.simUrl).port),
			};
			// Both answer, and n8n is the printed process.
			expect((await fetch(`http://127.0.0.1:${ports.n8n}/healthz`)).status).toBe(200);
			expect((await fetch(`${running.simUrl}/_sim/campaigns`)).status).toBe(200);
			expect(isRunning(running.n8nPid)).toBe(true);
			expect(groupMembers(running.n8nPid)).toContain(running.n8nPid);
			if (process.platform === 'linux')
				expect(pidsWithEnv('N8N_USER_FOLDER', path.dirname(running.logFile))).toEqual([
					running.n8nPid,
				]);
			const up = Date.now();

			await stop(running);
			let left = await leftovers(running, ports);
			while (left.length > 0 && Date.now() - up < GONE_WITHIN_MS) {
				await sleep(250);
				left = await leftovers(running, ports);
			}
			process.stdout.write(
				`${name}: started in ${up - started} ms, all gone ${Date.now() - up} ms after the signal\n`,
			);
			expect(left).toEqual([]);
			await running.closed;
			if (says) expect(running.output()).toContain('Stopped.');
		},
		240_000,
	);
});
