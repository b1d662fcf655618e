/**
 * Installs the pinned n8n (test/e2e/n8n/package.json + package-lock.json) into a cache folder
 * outside the repository and reuses it while the lock file is unchanged.
 *
 *   npx tsx test/e2e/support/install.ts     # install or verify, print the folder
 *   await ensureN8nInstalled()              # from jest hooks or the demo
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { withLock } from './lock';
import { cacheRoot, N8N_RUNTIME_SPEC_DIR } from './paths';
import { NPM, runCommand } from './run-command';
import { buildSqliteAside } from './sqlite-aside';

export interface N8nInstall {
	/** The folder holding node_modules/n8n. */
	dir: string;
	/** The n8n entry script, run as `node <bin> start`. */
	bin: string;
	version: string;
}

export interface InstallOptions {
	/** Progress lines (the demo and the CLI print them; tests stay quiet). */
	log?: (line: string) => void;
}

/**
 * Native modules n8n loads at start that `--ignore-scripts` left unbuilt. isolated-vm ships a
 * prebuilt binary for Node 24 (node-gyp-build loads it, as NATIVE_CHECK proves), so only sqlite3
 * compiles: in a side folder, beside `npm ci` (sqlite-aside.ts). `npm rebuild` of both in place is
 * the fallback when that fails or its result does not load.
 */
const NATIVE_MODULES = ['sqlite3', 'isolated-vm'];

const MARKER = '.phonovation-e2e-complete.json';

/** Proves the native modules load in this Node: an in-memory SQLite query and a V8 isolate. */
const NATIVE_CHECK = `
const sqlite3 = require('sqlite3');
const db = new sqlite3.Database(':memory:');
db.get('select 41 + 1 as answer', (error, row) => {
	if (error) throw error;
	if (row.answer !== 42) throw new Error('sqlite3 answered ' + JSON.stringify(row));
	db.close();
	const ivm = require('isolated-vm');
	const isolate = new ivm.Isolate({ memoryLimit: 16 });
	const value = isolate.compileScriptSync('6 * 7').runSync(isolate.createContextSync());
	if (value !== 42) throw new Error('isolated-vm answered ' + value);
	isolate.dispose();
	console.log('native modules ok');
});
`;

interface Marker {
	n8nVersion: string;
	nodeModuleVersion: string;
	platform: string;
	arch: string;
	seconds: number;
}

function pinnedVersion(packageJson: string): string {
	const version = (JSON.parse(packageJson) as { dependencies?: Record<string, string> })
		.dependencies?.n8n;
	if (!version) throw new Error(`${N8N_RUNTIME_SPEC_DIR}/package.json does not pin n8n`);
	return version;
}

/** The cache folder for the current pin: one per content of package.json + package-lock.json. */
export async function n8nInstallDir(): Promise<string> {
	const hash = createHash('sha256');
	for (const file of ['package.json', 'package-lock.json']) {
		hash.update(await readFile(path.join(N8N_RUNTIME_SPEC_DIR, file)));
	}
	return path.join(cacheRoot(), hash.digest('hex').slice(0, 16));
}

function installOf(dir: string, version: string): N8nInstall {
	return { dir, bin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'), version };
}

async function readMarker(dir: string): Promise<Marker | undefined> {
	try {
		return JSON.parse(await readFile(path.join(dir, MARKER), 'utf8')) as Marker;
	} catch {
		return undefined;
	}
}

function markerFits(marker: Marker | undefined, version: string): boolean {
	return (
		marker?.n8nVersion === version &&
		marker.nodeModuleVersion === process.versions.modules &&
		marker.platform === process.platform &&
		marker.arch === process.arch
	);
}

const failureFile = (dir: string) => `${dir}.failed.json`;

const firstLine = (error: Error) => error.message.split('\n')[0];
const seconds = (since: number) => Math.round((Date.now() - since) / 1000);

/**
 * One jest run starts n8n once per test file: when the install already failed in this process,
 * the next files fail at once instead of spending minutes on the same failure. A later run
 * (another process) tries again.
 */
async function failFastAfterEarlierFailure(dir: string): Promise<void> {
	let failure: { pid?: number; message?: string };
	try {
		failure = JSON.parse(await readFile(failureFile(dir), 'utf8')) as typeof failure;
	} catch {
		return;
	}
	if (failure.pid === process.pid) {
		throw new Error(
			`The n8n install failed earlier in this run (see ${dir}/install.log):\n${failure.message}`,
		);
	}
	await rm(failureFile(dir), { force: true });
}

/**
 * node-gyp builds against these headers. Point it at the running Node's own headers: a
 * machine-wide `nodedir` (in ~/.npmrc) may name an older Node, and downloading headers fails offline.
 */
function nativeBuildEnv(): NodeJS.ProcessEnv {
	const nodeDir = path.dirname(path.dirname(process.execPath));
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
	};
	if (existsSync(path.join(nodeDir, 'include', 'node', 'node_version.h'))) {
		env.npm_config_nodedir = nodeDir;
	}
	// node-gyp compiles on every core (sqlite3 and isolated-vm are most of a first install).
	env.JOBS ??= 'max';
	return env;
}

/**
 * Returns the cached n8n install for the pinned version, installing it first when missing
 * (a few minutes and ~3 GB): `npm ci --ignore-scripts` with sqlite3 compiled beside it, then the
 * native modules n8n needs checked by loading them (rebuilt in place when they do not load).
 * A marker file is written only when all of that worked.
 */
export async function ensureN8nInstalled(options: InstallOptions = {}): Promise<N8nInstall> {
	const log = options.log ?? (() => undefined);
	const specJson = await readFile(path.join(N8N_RUNTIME_SPEC_DIR, 'package.json'), 'utf8');
	const version = pinnedVersion(specJson);
	const dir = await n8nInstallDir();
	if (markerFits(await readMarker(dir), version)) return installOf(dir, version);
	await failFastAfterEarlierFailure(dir);

	return await withLock(
		`${dir}.lock`,
		(pid) => log(`Another process (pid ${pid}) is installing n8n into ${dir}; waiting`),
		async () => {
			if (markerFits(await readMarker(dir), version)) return installOf(dir, version);
			const started = Date.now();
			log(`Installing n8n ${version} into ${dir} (a few minutes, ~3 GB; cached for later runs)`);
			await rm(dir, { recursive: true, force: true });
			await mkdir(dir, { recursive: true });
			for (const file of ['package.json', 'package-lock.json']) {
				await copyFile(path.join(N8N_RUNTIME_SPEC_DIR, file), path.join(dir, file));
			}
			const logFile = path.join(dir, 'install.log');
			const env = nativeBuildEnv();
			// sqlite3 has no prebuilt binary offline: it compiles (minutes, mostly one core) while npm ci
			// downloads and unpacks (one core). Settles to its build folder, or to why it failed.
			const aside = buildSqliteAside(dir, env);
			// No silent minute: what it is doing, every 30 s.
			let doing: () => string = () =>
				aside.settled()
					? 'downloading and unpacking n8n and its packages (npm ci)'
					: 'downloading and unpacking n8n and its packages (npm ci), compiling sqlite3 beside it';
			const heartbeat = setInterval(
				() => log(`…still ${doing()}: ${seconds(started)} s so far`),
				30_000,
			);
			try {
				// Install scripts stay off: some download prebuilt binaries, which fails offline.
				await runCommand(NPM, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
					cwd: dir,
					env,
					logFile,
				});
				if (!aside.settled()) {
					log(`n8n's packages are in (${seconds(started)} s); sqlite3 is still compiling`);
				}
				doing = () => 'compiling sqlite3 (started beside npm ci)';
				const sqliteBuild = await aside.result;
				let ready = false;
				if (typeof sqliteBuild === 'string') {
					const target = path.join(dir, 'node_modules', 'sqlite3', 'build');
					await rm(target, { recursive: true, force: true });
					await cp(sqliteBuild, target, { recursive: true });
					ready = await runCommand(process.execPath, ['-e', NATIVE_CHECK], {
						cwd: dir,
						env,
						logFile,
					}).then(
						() => true,
						(error: Error) => {
							log(
								`The native modules do not load as installed (${firstLine(error)}); rebuilding them`,
							);
							return false;
						},
					);
				} else {
					log(
						`Compiling sqlite3 beside npm ci failed (${firstLine(sqliteBuild)}); rebuilding in place`,
					);
				}
				if (!ready) {
					log('Building the native modules n8n needs: ' + NATIVE_MODULES.join(', '));
					doing = () => `compiling ${NATIVE_MODULES.join(' and ')}`;
					await runCommand(NPM, ['rebuild', ...NATIVE_MODULES], { cwd: dir, env, logFile });
					await runCommand(process.execPath, ['-e', NATIVE_CHECK], { cwd: dir, env, logFile });
				}
			} catch (error) {
				await writeFile(
					failureFile(dir),
					JSON.stringify({ pid: process.pid, message: (error as Error).message }),
				);
				throw error;
			} finally {
				clearInterval(heartbeat);
				await aside.stop();
			}
			const installed = JSON.parse(
				await readFile(path.join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
			) as { version: string };
			if (installed.version !== version) {
				throw new Error(`Expected n8n ${version} in ${dir}, found ${installed.version}`);
			}
			const marker: Marker = {
				n8nVersion: version,
				nodeModuleVersion: process.versions.modules,
				platform: process.platform,
				arch: process.arch,
				seconds: seconds(started),
			};
			await writeFile(path.join(dir, MARKER), JSON.stringify(marker, null, '\t'));
			log(`n8n ${version} installed in ${marker.seconds} s`);
			return installOf(dir, version);
		},
	);
}

if (require.main === module) {
	// Stopped (Ctrl-C, or the watchdog of .ci/n8n-early.sh): leave through process.exit, which
	// stops the sqlite3 compile too (sqlite-aside.ts).
	for (const [signal, code] of [
		['SIGINT', 130],
		['SIGTERM', 143],
		['SIGHUP', 129],
	] as const) {
		process.on(signal, () => process.exit(code));
	}
	const started = Date.now();
	ensureN8nInstalled({ log: (line) => console.log(line) })
		.then((install) => {
			console.log(`n8n ${install.version} ready in ${install.dir} (${seconds(started)} s)`);
		})
		.catch((error: unknown) => {
			console.error(error instanceof Error ? error.message : error);
			process.exitCode = 1;
		});
}
