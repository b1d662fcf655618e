/**
 * Programs some e2e scenarios need from Debian (redis-server, postgresql, chromium): found on
 * PATH, or installed with apt-get when missing, as a person would on a fresh machine.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { runCommand } from './run-command';

export interface DebianProgram {
	/** The executable's name, e.g. `redis-server`. */
	binary: string;
	/** The Debian package that provides it. */
	debianPackage: string;
	/** Which scenario needs it (for the progress line). */
	neededFor: string;
}

/** The first existing `binary` on PATH, /usr/bin or /usr/sbin. */
function onPath(binary: string): string | undefined {
	for (const dir of (process.env.PATH ?? '')
		.split(path.delimiter)
		.concat('/usr/bin', '/usr/sbin')) {
		const candidate = path.join(dir, binary);
		if (dir && existsSync(candidate)) return candidate;
	}
	return undefined;
}

/**
 * Installs Debian's `debianPackage` with apt-get (needs root and the package index, which
 * `apt-get update` refreshes when the first attempt fails); throws when this user cannot.
 */
export async function aptInstall(
	debianPackage: string,
	neededFor: string,
	log: (line: string) => void,
): Promise<void> {
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${debianPackage} is not installed and this user cannot install it: run \`sudo apt-get install -y ${debianPackage}\``,
		);
	}
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const install = () =>
		runCommand('apt-get', ['install', '-y', '--no-install-recommends', debianPackage], {
			cwd: tmpdir(),
			env,
			timeoutMs: 600_000,
		});
	log(`Installing ${debianPackage} with apt-get (${neededFor})`);
	try {
		await install();
	} catch {
		log('apt-get install failed; running apt-get update and trying again');
		await runCommand('apt-get', ['update'], { cwd: tmpdir(), env, timeoutMs: 600_000 });
		await install();
	}
}

/** The program's path; installs its Debian package first when it is missing. */
export async function ensureDebianProgram(
	program: DebianProgram,
	log: (line: string) => void = () => {},
): Promise<string> {
	const { binary, debianPackage, neededFor } = program;
	const found = onPath(binary);
	if (found) return found;
	await aptInstall(debianPackage, neededFor, log);
	const installed = onPath(binary);
	if (!installed)
		throw new Error(`apt-get installed ${debianPackage} but ${binary} is not on PATH`);
	return installed;
}
