import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { fetch } from 'undici';

import type { N8nInstall } from './install';
import { freePort } from './ports';
import { NPM, runCommand } from './run-command';

export interface StartN8nOptions {
	install: N8nInstall;
	/** The packed package (see packPackage) to install as a community package before start. */
	packageTarball?: string;
	/** Editor/REST port; a free one when omitted. */
	port?: number;
	/** An existing user folder to reuse; a fresh temp folder (removed on stop) when omitted. */
	userFolder?: string;
	/** Host name shown in n8n's URLs (e.g. localhost for the demo); it still listens on 127.0.0.1. */
	publicHost?: string;
	/** Extra environment for n8n, applied last. */
	env?: Record<string, string>;
	/** How long to wait for /healthz/readiness. */
	readyTimeoutMs?: number;
	/**
	 * A user folder whose database n8n already migrated (user-folder-template.ts): copied into the
	 * new folder, with its encryption key, so this start skips the migrations and the owner setup.
	 */
	template?: { folder: string; encryptionKey: string };
	/** Outlives the calling process (a shared n8n, stopped by the suite's teardown by its pid). */
	unref?: boolean;
}

export interface N8nProcess {
	/** e.g. http://127.0.0.1:40123 (no trailing slash). */
	url: string;
	port: number;
	userFolder: string;
	logFile: string;
	/** The process (and process group) id, where this process started it. */
	pid?: number;
	/** `${url}/webhook/<path>`: a production webhook URL, e.g. webhookUrl(`${webhookId}/phonovation`). */
	webhookUrl(webhookPath: string): string;
	/** Settles when the n8n process has exited (by stop() or on its own). */
	exited: Promise<void>;
	/** The last lines n8n wrote (stdout and stderr), for failure messages. */
	logTail(lines?: number): string;
	/** SIGTERM, SIGKILL after a timeout, then the temp user folder is removed (kept when PHONOVATION_E2E_KEEP=1). */
	stop(): Promise<void>;
}

/** The name n8n expects in <user folder>/.n8n/nodes/package.json (what its UI install writes). */
const NODES_PACKAGE_JSON = { name: 'installed-nodes', private: true, dependencies: {} };

/**
 * Installs a packed package where n8n's "Community nodes" install puts it: under
 * <user folder>/.n8n/nodes/node_modules. n8n scans that folder at start. Peer dependencies
 * (n8n-workflow) are not installed: they must resolve to n8n's own copy, as n8n does itself.
 */
export async function installCommunityPackage(
	userFolder: string,
	tarball: string,
): Promise<string> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	await mkdir(nodesDir, { recursive: true });
	if (!existsSync(path.join(nodesDir, 'package.json'))) {
		await writeFile(
			path.join(nodesDir, 'package.json'),
			JSON.stringify(NODES_PACKAGE_JSON, null, 2),
		);
	}
	await runCommand(
		NPM,
		[
			'install',
			tarball,
			'--ignore-scripts',
			'--legacy-peer-deps',
			'--no-audit',
			'--no-fund',
			'--bin-links=false',
			'--package-lock=false',
		],
		{ cwd: nodesDir },
	);
	return nodesDir;
}

/** Variables of the calling process that would change how n8n behaves (jest sets NODE_ENV=test). */
function inheritedEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (
			/^(N8N_|DB_|EXECUTIONS_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODE_ENV$|NODE_OPTIONS$|QUEUE_)/.test(
				key,
			)
		)
			continue;
		env[key] = value;
	}
	return env;
}

export interface N8nEnvOptions {
	userFolder: string;
	port: number;
	brokerPort: number;
	/** Host name in URLs n8n shows (webhook URLs); n8n still listens on 127.0.0.1 only. */
	publicHost?: string;
}

/** The environment for an offline, loopback-only n8n with our own ports and folders. */
export function n8nEnv(options: N8nEnvOptions): NodeJS.ProcessEnv {
	const publicHost = options.publicHost ?? '127.0.0.1';
	return {
		...inheritedEnv(),
		NODE_ENV: 'production',
		N8N_USER_FOLDER: options.userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: publicHost,
		N8N_PORT: String(options.port),
		N8N_PROTOCOL: 'http',
		N8N_WEBHOOK_URL: `http://${publicHost}:${options.port}/`,
		N8N_EDITOR_BASE_URL: `http://${publicHost}:${options.port}/`,
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_MODE: 'internal',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		// A loaded 2-core machine can take longer than n8n's 5 s to answer its database ping; n8n
		// then answers 503 "Database is not ready!" and, after 3 misses, rebuilds its connections.
		// The suite's machine is slow, not broken: give the ping time before it counts as a miss.
		DB_PING_TIMEOUT_MS: '30000',
		DB_PING_MAX_FAILURES_BEFORE_RECOVERY: '10',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
	};
}

export function tailOf(file: string, lines: number): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

export function exited(child: ChildProcess): Promise<void> {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		child.once('exit', () => resolve());
	});
}

/** Signals n8n and everything it started (the task runner) through the process group it leads. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// already gone
		}
	}
}

async function waitUntilReady(
	url: string,
	child: ChildProcess,
	logFile: string,
	timeoutMs: number,
) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(
				`n8n exited during start (${child.exitCode ?? child.signalCode}).\n${tailOf(logFile, 60)}`,
			);
		}
		try {
			const response = await fetch(`${url}/healthz/readiness`, {
				signal: AbortSignal.timeout(2000),
			});
			if (response.status === 200) return;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`n8n was not ready within ${timeoutMs / 1000} s.\n${tailOf(logFile, 60)}`);
}

/**
 * Starts `n8n start` from the cached install: its own temp user folder (SQLite database,
 * encryption key, installed community packages), 127.0.0.1 only, free ports, no telemetry.
 * Resolves once /healthz/readiness answers 200.
 */
export async function startN8n(options: StartN8nOptions): Promise<N8nProcess> {
	const ownsFolder = !options.userFolder;
	const userFolder =
		options.userFolder ?? (await mkdtemp(path.join(tmpdir(), 'n8n-phonovation-e2e-')));
	const port = options.port ?? (await freePort());
	let brokerPort = await freePort();
	while (brokerPort === port) brokerPort = await freePort();
	if (options.template) await cp(options.template.folder, userFolder, { recursive: true });
	if (options.packageTarball) await installCommunityPackage(userFolder, options.packageTarball);

	const logFile = path.join(userFolder, 'n8n.log');
	const logFd = openSync(logFile, 'a');
	const env = {
		...n8nEnv({ userFolder, port, brokerPort, publicHost: options.publicHost }),
		...(options.template ? { N8N_ENCRYPTION_KEY: options.template.encryptionKey } : {}),
		...options.env,
	};
	const child = spawn(process.execPath, [options.install.bin, 'start'], {
		cwd: userFolder,
		env,
		stdio: ['ignore', logFd, logFd],
		detached: true,
	});
	closeSync(logFd);
	if (options.unref) child.unref();
	const url = `http://127.0.0.1:${port}`;

	let stopped: Promise<void> | undefined;
	const stop = () =>
		(stopped ??= (async () => {
			signalGroup(child, 'SIGTERM');
			const killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), 20_000);
			await exited(child);
			clearTimeout(killTimer);
			// The task runner may outlive its parent for a moment.
			signalGroup(child, 'SIGKILL');
			if (ownsFolder && process.env.PHONOVATION_E2E_KEEP !== '1')
				await rm(userFolder, { recursive: true, force: true, maxRetries: 3 });
		})());

	try {
		await waitUntilReady(url, child, logFile, options.readyTimeoutMs ?? 180_000);
	} catch (error) {
		await stop();
		throw error;
	}

	return {
		url,
		port,
		userFolder,
		logFile,
		pid: child.pid,
		exited: exited(child),
		webhookUrl: (webhookPath) => `${url}/webhook/${webhookPath.replace(/^\/+/, '')}`,
		logTail: (lines = 60) => tailOf(logFile, lines),
		stop,
	};
}
