/**
 * Finding a server binary of a Debian package, and installing the package with apt-get when it is
 * missing (needs root and the package index, which `apt-get update` refreshes when the first
 * attempt fails).
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { runCommand } from './run-command';

/** The first existing `binary` in these folders, PATH, /usr/bin and /usr/sbin. */
export function findBinary(binary: string, extraDirs: string[] = []): string | undefined {
	const dirs = [...extraDirs, ...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/sbin'];
	for (const dir of dirs) {
		const candidate = path.join(dir, binary);
		if (dir && existsSync(candidate)) return candidate;
	}
	return undefined;
}

/** Installs Debian's `debianPackage` with apt-get; throws when this user cannot. */
export async function aptInstall(debianPackage: string, log: (line: string) => void): Promise<void> {
	if (process.getuid?.() !== 0) {
		throw new Error(`${debianPackage} is not installed and this user cannot install it: run \`sudo apt-get install -y ${debianPackage}\``);
	}
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const install = () =>
		runCommand('apt-get', ['install', '-y', '--no-install-recommends', debianPackage], { cwd: tmpdir(), env, timeoutMs: 600_000 });
	log(`Installing ${debianPackage} with apt-get (queue-mode scenario)`);
	try {
		await install();
	} catch {
		log('apt-get install failed; running apt-get update and trying again');
		await runCommand('apt-get', ['update'], { cwd: tmpdir(), env, timeoutMs: 600_000 });
		await install();
	}
}
