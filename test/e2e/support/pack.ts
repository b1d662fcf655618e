import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import { withLock } from './lock';
import { cacheRoot, REPO_ROOT } from './paths';
import { NPM, runCommand } from './run-command';

/** What goes into the build: when none of it changed, the last packed tarball is reused. */
const BUILD_INPUTS = [
	'package.json',
	'tsconfig.json',
	'gulpfile.js',
	'credentials',
	'nodes',
	'icons',
	// Shipped in the package as they are (package.json "files"), so a change must repack.
	'examples',
	'README.md',
];

async function filesUnder(entry: string): Promise<string[]> {
	const full = path.join(REPO_ROOT, entry);
	if (!existsSync(full)) return [];
	if (!(await stat(full)).isDirectory()) return [full];
	const entries = await readdir(full, { recursive: true, withFileTypes: true });
	return entries
		.filter((item) => item.isFile())
		.map((item) => path.join(item.parentPath, item.name));
}

async function sourceHash(): Promise<string> {
	const hash = createHash('sha256');
	const files = (await Promise.all(BUILD_INPUTS.map(filesUnder))).flat().sort();
	for (const file of files) {
		hash.update(path.relative(REPO_ROOT, file));
		hash.update('\0');
		hash.update(await readFile(file));
		hash.update('\0');
	}
	return hash.digest('hex').slice(0, 16);
}

export interface PackOptions {
	log?: (line: string) => void;
	/** Build and pack even when a tarball for the current sources exists. */
	force?: boolean;
}

/**
 * `npm run build` then `npm pack`: the tarball a user would install from npm. Cached by the
 * content of the build inputs, so several test files (and the demo) pack once per change.
 */
export async function packPackage(options: PackOptions = {}): Promise<string> {
	const log = options.log ?? (() => undefined);
	const packs = path.join(cacheRoot(), 'packs');
	await mkdir(packs, { recursive: true });
	const target = path.join(packs, `n8n-nodes-phonovation-${await sourceHash()}.tgz`);
	if (!options.force && existsSync(target)) return target;
	return await withLock(
		path.join(packs, 'build.lock'),
		(pid) => log(`Waiting for process ${pid}, which is building the package`),
		async () => {
			if (!options.force && existsSync(target)) return target;
			await buildAndPack(packs, target, log);
			await pruneOldPacks(packs, target);
			return target;
		},
	);
}

async function buildAndPack(
	packs: string,
	target: string,
	log: (line: string) => void,
): Promise<void> {
	log('Building the package (npm run build)');
	await runCommand(NPM, ['run', 'build'], { cwd: REPO_ROOT });
	const scratch = await mkdtemp(path.join(packs, 'pack-'));
	try {
		log('Packing it (npm pack)');
		await runCommand(NPM, ['pack', '--pack-destination', scratch], { cwd: REPO_ROOT });
		const [tarball] = (await readdir(scratch)).filter((name) => name.endsWith('.tgz'));
		if (!tarball) throw new Error(`npm pack wrote no tarball into ${scratch}`);
		await rename(path.join(scratch, tarball), target);
	} finally {
		await rm(scratch, { recursive: true, force: true });
	}
}

/** Keeps the newest few tarballs (another checkout or the demo may still use one). */
async function pruneOldPacks(packs: string, keep: string, count = 5): Promise<void> {
	const tarballs = (await readdir(packs))
		.filter((name) => name.endsWith('.tgz'))
		.map((name) => path.join(packs, name));
	const withTimes = await Promise.all(
		tarballs.map(async (file) => ({ file, mtime: (await stat(file)).mtimeMs })),
	);
	const old = withTimes
		.sort((a, b) => b.mtime - a.mtime)
		.slice(count)
		.filter((t) => t.file !== keep);
	await Promise.all(old.map((t) => rm(t.file, { force: true })));
}
