import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Whether a process with this id is still running. */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/**
 * Takes a lock folder, waiting while a live process holds it; a lock left by a dead process is
 * taken over. Resolves to the function that lets it go.
 */
export async function acquireLock(
	lock: string,
	onWait: (pid: number | string) => void,
): Promise<() => Promise<void>> {
	await mkdir(path.dirname(lock), { recursive: true });
	let waitingSaid = false;
	for (;;) {
		try {
			await mkdir(lock);
			await writeFile(path.join(lock, 'pid'), String(process.pid));
			return async () => await rm(lock, { recursive: true, force: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const pid = Number(await readFile(path.join(lock, 'pid'), 'utf8').catch(() => '0'));
			if (pid && !isAlive(pid)) {
				await rm(lock, { recursive: true, force: true });
				continue;
			}
			if (!waitingSaid) onWait(pid || '?');
			waitingSaid = true;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}
}

/**
 * Runs `work` while holding a lock folder, so two processes (jest and the demo, say) never
 * install n8n or build the package at the same time.
 */
export async function withLock<T>(
	lock: string,
	onWait: (pid: number | string) => void,
	work: () => Promise<T>,
): Promise<T> {
	const release = await acquireLock(lock, onWait);
	try {
		return await work();
	} finally {
		await release();
	}
}
