/**
 * sqlite3 (n8n's database driver) has no prebuilt binary offline, so an n8n install compiles it:
 * two to three minutes, mostly on one core. Compiled in a side folder while the big
 * `npm ci --ignore-scripts` downloads and unpacks n8n (one core too), it is off the install's
 * critical path; install.ts copies the result into the install and proves that it loads.
 *
 * It stays off it: the compile runs at a lower priority (npm ci, the longest step of a cold
 * `npm start`, keeps its core) and at -O2, not sqlite's -O3 (half the compile time; a demo's or a
 * test's few rows do not need the difference).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import path from 'node:path';

import { NPM } from './run-command';

export interface AsideBuild {
	/** sqlite3's built `build` folder, or the error that stopped the build. */
	result: Promise<string | Error>;
	/** Whether `result` is known. */
	settled: () => boolean;
	/** Stops a build still running (its whole process group) and removes the side folder. */
	stop: () => Promise<void>;
}

interface LockEntry {
	version?: string;
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
}

/**
 * The side folder's package.json: sqlite3 at the version n8n's lock file pins, and its own
 * dependencies (node-gyp, node-addon-api…) at the versions that lock file gives them.
 */
async function sidePackageJson(installDir: string): Promise<string> {
	const lock = JSON.parse(await readFile(path.join(installDir, 'package-lock.json'), 'utf8')) as {
		packages: Record<string, LockEntry>;
	};
	const sqlite = lock.packages['node_modules/sqlite3'];
	if (!sqlite?.version) throw new Error('the lock file has no node_modules/sqlite3');
	const dependencies: Record<string, string> = { sqlite3: sqlite.version };
	for (const name of Object.keys({ ...sqlite.dependencies, ...sqlite.optionalDependencies })) {
		const entry =
			lock.packages[`node_modules/sqlite3/node_modules/${name}`] ??
			lock.packages[`node_modules/${name}`];
		if (entry?.version) dependencies[name] = entry.version;
	}
	return JSON.stringify({ private: true, dependencies }, null, '\t');
}

/** The nice value of the compile: below npm ci's, which the install waits on. */
const BACKGROUND_PRIORITY = 10;

export function buildSqliteAside(installDir: string, baseEnv: NodeJS.ProcessEnv): AsideBuild {
	const side = `${installDir}.sqlite3`;
	// gcc takes the last -O: CFLAGS come after the -O3 of sqlite3's gyp file.
	const env = { ...baseEnv, CFLAGS: `${baseEnv.CFLAGS ?? ''} -O2`.trim() };
	const logFile = path.join(installDir, 'sqlite3-build.log');
	let child: ChildProcess | undefined;
	let stopped = false;
	let settled = false;
	// A demo stopped with Ctrl-C exits through process.exit: the compiler goes with it.
	const killGroup = () => {
		if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				// Already gone.
			}
		}
	};
	process.on('exit', killGroup);

	/** Runs one npm command in its own process group (npm, sh, node-gyp, make, the compiler). */
	const npm = (args: string[]) =>
		new Promise<void>((resolve, reject) => {
			if (stopped) return reject(new Error('stopped'));
			const log = createWriteStream(logFile, { flags: 'a' });
			log.write(`\n$ npm ${args.join(' ')}\n`);
			let tail = '';
			const spawned = spawn(NPM, args, {
				cwd: side,
				env,
				detached: true,
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			child = spawned;
			// Before npm starts node-gyp and the compiler, which inherit it.
			if (spawned.pid !== undefined) {
				try {
					setPriority(spawned.pid, BACKGROUND_PRIORITY);
				} catch {
					// Not allowed here: it only takes longer.
				}
			}
			const onData = (chunk: Buffer) => {
				tail = (tail + chunk.toString('utf8')).slice(-4000);
				log.write(chunk);
			};
			spawned.stdout.on('data', onData);
			spawned.stderr.on('data', onData);
			spawned.on('error', (error) => {
				log.end();
				reject(error);
			});
			spawned.on('close', (code, signal) => {
				log.end();
				if (code === 0) return resolve();
				const last = tail.trim().split('\n').slice(-10).join('\n');
				reject(
					new Error(
						`npm ${args.join(' ')} failed (${signal ? `signal ${signal}` : `exit ${code}`}) in ${side}, see ${logFile}\n${last}`,
					),
				);
			});
		});

	const result = (async () => {
		await rm(side, { recursive: true, force: true });
		await mkdir(side, { recursive: true });
		// A package.json of its own, so that npm installs here and not in a folder above.
		await writeFile(path.join(side, 'package.json'), await sidePackageJson(installDir));
		await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock']);
		await npm(['rebuild', 'sqlite3']);
		const build = path.join(side, 'node_modules', 'sqlite3', 'build');
		if (!existsSync(path.join(build, 'Release', 'node_sqlite3.node'))) {
			throw new Error(`no build/Release/node_sqlite3.node in ${side}/node_modules/sqlite3`);
		}
		return build;
	})()
		.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
		.finally(() => (settled = true));

	const stop = async () => {
		stopped = true;
		killGroup();
		await result;
		process.off('exit', killGroup);
		await rm(side, { recursive: true, force: true });
	};
	return { result, settled: () => settled, stop };
}
