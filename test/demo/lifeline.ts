/**
 * Keeps the demo's processes from outliving `npm start`, however it is stopped.
 *
 * `npm start` is a chain: npm → sh -c → tsx → this demo (node) → n8n (detached: its own session and
 * process group) → n8n's task runner. Signals do not travel down that chain reliably:
 * - npm forwards SIGINT/SIGTERM only to `sh`, which dies without passing them on; npm then exits,
 *   leaving tsx and the demo running (an IDE's stop button, a process manager's SIGTERM).
 * - npm does not handle SIGHUP (it just dies), and a SIGKILL of npm reaches nobody else.
 * - A signal to npm's process group (Ctrl-C, a closed terminal, the e2e test's SIGKILL) never
 *   reaches n8n, which is in its own group; and a demo killed with SIGKILL cannot stop n8n.
 *
 * So each process watches the one(s) above it rather than waiting for signals:
 * - `watchLifeline`: the demo polls its ancestors up to the npm process and stops (gracefully)
 *   once one of them is gone;
 * - `n8nWatchdogEnv`: n8n preloads n8n-watchdog.cjs, which stops n8n (and its task runner) once
 *   the demo process is gone, whatever killed it.
 * Polling pids is cheap and needs no cooperation from npm, sh or tsx.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProcessInfo {
	ppid: number;
	args: string;
	zombie: boolean;
}

/** /proc on Linux, `ps` elsewhere (macOS); undefined when the process is gone or unreadable. */
function processInfo(pid: number): ProcessInfo | undefined {
	if (existsSync('/proc/self/stat')) {
		try {
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			// "pid (comm) state ppid …"; comm may itself contain spaces and parentheses.
			const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+/g, ' ').trim();
			return { ppid: Number(ppid), args, zombie: state === 'Z' };
		} catch {
			return undefined;
		}
	}
	try {
		const line = execFileSync('ps', ['-o', 'ppid=,stat=,args=', '-p', String(pid)], {
			encoding: 'utf8',
		}).trim();
		const match = line.match(/^(\d+)\s+(\S+)\s+(.*)$/);
		return match
			? { ppid: Number(match[1]), args: match[3], zombie: match[2].startsWith('Z') }
			: undefined;
	} catch {
		return undefined;
	}
}

/** npm as it shows itself: its process title ("npm start") or `node …/npm-cli.js start`. */
const NPM = /(^|[\s/])(npm|npm-cli\.js|pnpm|yarn|yarn\.js)(\s|$)/;

interface Ancestor {
	pid: number;
	/** How it is shown when it exits, e.g. "npm start". */
	name: string;
}

/**
 * The processes whose death means the demo should stop: its parent (tsx) and, when npm started it
 * (`npm start`), every process up to and including that npm. Not above npm: a user's shell that
 * exits after `nohup npm start &` must not stop the demo.
 */
export function watchedAncestors(): Ancestor[] {
	const parent = { pid: process.ppid, name: 'its parent process' };
	if (!process.env.npm_lifecycle_event) return [parent];
	const chain: Ancestor[] = [];
	for (let pid = parent.pid, depth = 0; pid > 1 && depth < 10; depth++) {
		const info = processInfo(pid);
		if (!info) break;
		chain.push({ pid, name: info.args.length > 40 ? `${info.args.slice(0, 40)}…` : info.args });
		if (NPM.test(info.args)) return chain;
		pid = info.ppid;
	}
	return [parent];
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
	// A dead npm stays a zombie until its parent (an IDE, say) reaps it.
	return !(process.platform === 'linux' && processInfo(pid)?.zombie);
}

/**
 * Calls `onLost` once, when the demo's parent or an ancestor up to npm has gone (the demo was
 * re-parented, or the pid no longer exists). Returns a function that stops watching.
 */
export function watchLifeline(onLost: (why: string) => void, intervalMs = 500): () => void {
	if (process.platform === 'win32') return () => undefined;
	const parent = process.ppid;
	const ancestors = watchedAncestors();
	const check = () => {
		const lost =
			process.ppid !== parent ? ancestors[0] : ancestors.find((ancestor) => !isAlive(ancestor.pid));
		if (!lost) return;
		clearInterval(timer);
		onLost(`${lost.name} (pid ${lost.pid}) exited`);
	};
	const timer = setInterval(check, intervalMs);
	// The watch alone never keeps the demo running.
	timer.unref();
	return () => clearInterval(timer);
}

export const N8N_WATCHDOG = path.join(__dirname, 'n8n-watchdog.cjs');

/**
 * Environment for startN8n's `env` option: n8n preloads n8n-watchdog.cjs, which writes n8n's pid
 * to `pidFile` and stops n8n and its task runner once this process has gone, then removes `folder`
 * (when given).
 */
export function n8nWatchdogEnv(
	pidFile: string,
	folder: string | undefined,
): Record<string, string> {
	return {
		// Quoted: the repository's path may contain spaces. n8n's own env has no NODE_OPTIONS (startN8n drops it).
		NODE_OPTIONS: `--require ${JSON.stringify(N8N_WATCHDOG)}`,
		PHONOVATION_DEMO_PARENT_PID: String(process.pid),
		PHONOVATION_DEMO_N8N_PID_FILE: pidFile,
		...(folder ? { PHONOVATION_DEMO_FOLDER: folder } : {}),
	};
}

/** n8n's pid as its watchdog wrote it; undefined before n8n started. */
export function readPid(pidFile: string): number | undefined {
	try {
		const pid = Number(readFileSync(pidFile, 'utf8').trim());
		return Number.isInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

/** Signals a process group (n8n leads its own; 0 only checks it exists); false when it is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false;
	}
}
