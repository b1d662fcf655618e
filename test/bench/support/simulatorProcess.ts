import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { request } from 'undici';

import {
	type CampaignLimit,
	DEFAULT_CONFIG,
	type Fault,
	type RecordedCampaign,
	type RecordedRequest,
	type SimulatorConfig,
} from '../../simulator';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * The provider simulator in its own process, driven through its /_sim/ control routes. It parses
 * and stores every campaign body it receives; out of process, that work and memory never count
 * towards the heap or CPU we measure here.
 */
export interface SimulatorProcess {
	url: string;
	/** Username, password, relay secret and API ID it accepts (the defaults). */
	config: SimulatorConfig;
	count(method: string, path: string): Promise<number>;
	campaigns(): Promise<RecordedCampaign[]>;
	/** Every provider request answered, with its status. */
	requests(): Promise<RecordedRequest[]>;
	/** Provider requests since the last reset that came on a new connection, and on a reused one. */
	connections(): Promise<{ opened: number; reused: number }>;
	/** A provider with a limit: at most `max` campaign requests at once, 429 above it (null: none). */
	setCampaignLimit(limit: CampaignLimit | null): Promise<void>;
	advanceClock(seconds: number): Promise<void>;
	/** Queues a fault for the next `times` requests to `path` (see the simulator's faults). */
	injectFault(path: string, fault: Fault, times?: number): Promise<void>;
	reset(): Promise<void>;
	stop(): Promise<void>;
}

async function control(
	url: string,
	method: 'GET' | 'POST',
	route: string,
	body?: unknown,
): Promise<any> {
	const response = await request(`${url}/_sim/${route}`, {
		method,
		// A fresh connection each time: a kept-alive one may be closed by the server mid-reuse.
		reset: true,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.body.text();
	if (response.statusCode !== 200)
		throw new Error(`Simulator /_sim/${route} answered ${response.statusCode}: ${text}`);
	return JSON.parse(text);
}

function waitForUrl(child: ChildProcess): Promise<string> {
	return new Promise((resolve, reject) => {
		const lines = createInterface({ input: child.stdout! });
		lines.on('line', (line) => {
			const match = /listening on (https?:\/\/\S+)/.exec(line);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) =>
			reject(new Error(`The simulator exited before listening (exit ${code})`)),
		);
		child.once('error', reject);
	});
}

/**
 * Starts `test/simulator/cli.ts` on a free 127.0.0.1 port with the default configuration; with
 * `tls`, over HTTPS with that certificate (this process must trust it: NODE_EXTRA_CA_CERTS).
 */
export async function startSimulatorProcess(tls?: {
	certFile: string;
	keyFile: string;
}): Promise<SimulatorProcess> {
	const tlsArgs = tls ? ['--tls-cert', tls.certFile, '--tls-key', tls.keyFile] : [];
	const child = spawn(
		process.execPath,
		['--import', 'tsx', path.join('test', 'simulator', 'cli.ts'), '--port', '0', ...tlsArgs],
		{
			cwd: REPO_ROOT,
			// The CLI logs every request to stderr: shown with BENCH_SIM_LOG=1, else dropped.
			stdio: ['ignore', 'pipe', process.env.BENCH_SIM_LOG === '1' ? 'inherit' : 'ignore'],
			env: { ...process.env, NODE_OPTIONS: '' },
		},
	);
	const url = await waitForUrl(child);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	return {
		url,
		config: { ...DEFAULT_CONFIG },
		count: async (method, route) =>
			(await control(url, 'GET', `count?method=${method}&path=${encodeURIComponent(route)}`))
				.count as number,
		campaigns: async () => (await control(url, 'GET', 'campaigns')) as RecordedCampaign[],
		requests: async () => (await control(url, 'GET', 'requests')) as RecordedRequest[],
		connections: async () => await control(url, 'GET', 'connections'),
		setCampaignLimit: async (campaignLimit) =>
			void (await control(url, 'POST', 'config', { campaignLimit })),
		advanceClock: async (seconds) =>
			void (await control(url, 'POST', 'clock/advance', { seconds })),
		injectFault: async (route, fault, times = 1) =>
			void (await control(url, 'POST', 'faults', { path: route, fault, times })),
		reset: async () => void (await control(url, 'POST', 'reset', {})),
		stop: async () => {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			await exited;
		},
	};
}
