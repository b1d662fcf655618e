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
	peerDependencies?: Record<string, string>;
}

type LockPackages = Record<string, LockEntry>;

/** Where node finds `name` from the package at `key`: its own node_modules, then each one above. */
function resolvedFrom(packages: LockPackages, key: string, name: string): string | undefined {
	for (let base = key; ;) {
		const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
		if (packages[candidate]) return candidate;
		if (base === '') return undefined;
		const parent = base.lastIndexOf('/node_modules/');
		base = parent === -1 ? '' : base.slice(0, parent);
	}
}

/**
 * The side folder's package.json and lock file: sqlite3 and everything it needs to build
 * (node-gyp, prebuild-install and theirs), each at the place, version and integrity n8n's lock file
 * gives it, so `npm ci` installs exactly what the n8n install would have built with.
 */
export function sideInstall(n8nLock: { packages: LockPackages }): {
	packageJson: object;
	lock: object;
} {
	const { packages } = n8nLock;
	const sqlite = packages['node_modules/sqlite3'];
	if (!sqlite?.version) throw new Error('the lock file has no node_modules/sqlite3');
	const taken = new Set(['node_modules/sqlite3']);
	for (const key of taken) {
		const entry = packages[key];
		const names = Object.keys({
			...entry.dependencies,
			...entry.optionalDependencies,
			...entry.peerDependencies,
		});
		for (const name of names) {
			const found = resolvedFrom(packages, key, name);
			if (found) taken.add(found);
		}
	}
	const dependencies = { sqlite3: sqlite.version };
	const name = 'n8n-phonovation-sqlite3-aside';
	return {
		packageJson: { name, private: true, dependencies },
		lock: {
			name,
			lockfileVersion: 3,
			requires: true,
			packages: {
				'': { name, dependencies },
				...Object.fromEntries([...taken].sort().map((key) => [key, packages[key]])),
			},
		},
	};
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
		const n8nLock = JSON.parse(await readFile(path.join(installDir, 'package-lock.json'), 'utf8'));
		const { packageJson, lock } = sideInstall(n8nLock);
		await writeFile(path.join(side, 'package.json'), JSON.stringify(packageJson, null, '\t'));
		await writeFile(path.join(side, 'package-lock.json'), JSON.stringify(lock, null, '\t'));
		await npm(['ci', '--ignore-scripts', '--no-audit', '--no-fund']);
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
