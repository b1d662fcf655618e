/**
 * Whether processes are still running, for tests that check nothing was left behind. Zombies
 * (exited, not yet reaped by whoever adopted them) count as gone. Reads /proc on Linux; elsewhere
 * falls back to kill(pid, 0), which counts zombies as running.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const HAS_PROC = existsSync('/proc/self/stat');

/** A process's state and process group, from /proc/<pid>/stat; undefined when it is gone. */
function stat(pid: number | string): { state: string; pgid: number } | undefined {
	try {
		const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const [state, , pgid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
		return { state, pgid: Number(pgid) };
	} catch {
		return undefined;
	}
}

function signalZero(target: number): boolean {
	try {
		process.kill(target, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

export function isRunning(pid: number): boolean {
	if (!HAS_PROC) return signalZero(pid);
	const info = stat(pid);
	return info !== undefined && info.state !== 'Z';
}

/** The live members of a process group (pids), e.g. n8n and its task runner. */
export function groupMembers(pgid: number): number[] {
	if (!HAS_PROC) return signalZero(-pgid) ? [pgid] : [];
	const members: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const info = stat(entry);
		if (info && info.pgid === pgid && info.state !== 'Z') members.push(Number(entry));
	}
	return members;
}

/** A process's command line, for failure messages. */
export function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+/g, ' ').trim();
	} catch {
		return '?';
	}
}

/**
 * Pids of the live processes started with `name=value` in their environment (Linux only: an
 * empty list elsewhere), e.g. the n8n that uses a given N8N_USER_FOLDER, whatever it printed.
 */
export function pidsWithEnv(name: string, value: string): number[] {
	if (!HAS_PROC) return [];
	const wanted = `${name}=${value}`;
	const pids: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			if (!readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(wanted)) continue;
		} catch {
			continue;
		}
		if (isRunning(Number(entry))) pids.push(Number(entry));
	}
	return pids;
}
