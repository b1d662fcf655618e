/**
 * `npm test` after Node 24 and the install (.ci/with-node24.sh): every check CI runs, in two lanes
 * while they do not compete for the two cores, then the end-to-end tests, then a table of each
 * step's and each end-to-end file's time, slowest first, and the one closing line CI reads.
 *
 *   lane 1: format check → lint → build → scan → type check   (one core: eslint and tsc)
 *   lane 2: unit and engine tests                              (jest, three workers)
 *   then:   end-to-end tests                                   (jest, a shared n8n per worker)
 *
 * The unit and engine tests wait on timers and the simulator about half the time, so a third
 * worker fills the cores; ts-jest only transpiles (tsconfig.test.json's isolatedModules), since
 * the type check is a step of its own.
 *
 * `npm run test:quick` runs lane 1 without the scan and lane 2: the inner loop before a commit.
 * A lane stops at its first failing step; the end-to-end tests run when the build worked, so one
 * run reports every failure it can.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';

interface Step {
	name: string;
	script: string;
}

interface StepResult {
	name: string;
	seconds: number;
	ok: boolean;
}

const quick = process.argv.includes('--quick');
const timings = path.join(
	mkdtempSync(path.join(tmpdir(), 'phonovation-timings-')),
	'timings.jsonl',
);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const staticLane: Step[] = [
	{ name: 'format check', script: 'format:check' },
	{ name: 'lint', script: 'lint' },
	{ name: 'build', script: 'build' },
	...(quick ? [] : [{ name: 'scan', script: 'scan' }]),
	{ name: 'type check', script: 'typecheck' },
];
const unitLane: Step[] = [{ name: 'unit and engine tests', script: 'test:unit' }];
const e2e: Step = { name: 'end-to-end tests', script: 'test:e2e' };

/** Runs one npm script; a step of a lane that runs beside another prints when it ends, whole. */
function runStep(step: Step, buffered: boolean): Promise<StepResult> {
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn(npm, ['run', '--silent', step.script], {
			env: { ...process.env, PHONOVATION_TIMINGS: timings },
			stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
		});
		const output: Buffer[] = [];
		child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
		child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
		child.on('close', (code) => {
			const result = { name: step.name, seconds: (Date.now() - started) / 1000, ok: code === 0 };
			if (buffered) {
				process.stdout.write(`\n──── ${step.name} (${result.ok ? 'passed' : 'FAILED'}) ────\n`);
				process.stdout.write(Buffer.concat(output));
			}
			resolve(result);
		});
	});
}

async function runLane(steps: Step[], buffered: boolean): Promise<StepResult[]> {
	const results: StepResult[] = [];
	for (const step of steps) {
		process.stdout.write(`▶ ${step.name}\n`);
		const result = await runStep(step, buffered);
		results.push(result);
		process.stdout.write(
			`${result.ok ? '✔' : '✘'} ${step.name} (${result.seconds.toFixed(0)} s)\n`,
		);
		if (!result.ok) break;
	}
	return results;
}

interface FileTiming {
	kind: 'file';
	project: string;
	file: string;
	seconds: number;
	passed: number;
	failed: number;
	skipped: number;
}
interface TestTiming {
	kind: 'test';
	project: string;
	file: string;
	title: string;
	seconds: number;
}
interface RunCount {
	kind: 'run';
	passed: number;
	failed: number;
	skipped: number;
}

type Timing = FileTiming | TestTiming | RunCount;

function readTimings(): Timing[] {
	try {
		return readFileSync(timings, 'utf8')
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line) as Timing);
	} catch {
		return [];
	}
}

function printTable(steps: StepResult[], wallSeconds: number): void {
	const lines = readTimings();
	const files = lines.filter((l): l is FileTiming => l.kind === 'file');
	const rows: Array<[string, number, string]> = [
		...steps.map((s): [string, number, string] => [s.name, s.seconds, s.ok ? 'ok' : 'FAILED']),
		...files
			.filter((f) => f.project === 'e2e')
			.map((f): [string, number, string] => [
				`  ${f.file}`,
				f.seconds,
				`${f.passed} passed${f.failed ? `, ${f.failed} FAILED` : ''}`,
			]),
	].sort((a, b) => b[1] - a[1]);
	const unitFiles = files.filter((f) => f.project !== 'e2e').sort((a, b) => b.seconds - a.seconds);
	const width = Math.max(...rows.map((r) => r[0].length), 20);
	const [load1, load5] = loadavg();
	process.stdout.write(
		`\nTimes, slowest first (wall clock ${wallSeconds.toFixed(0)} s; ${cpus().length} cores, ` +
			`load average ${load1.toFixed(1)} / ${load5.toFixed(1)} over 1 / 5 min at the end):\n`,
	);
	for (const [name, seconds, status] of rows) {
		process.stdout.write(`${name.padEnd(width)} ${seconds.toFixed(0).padStart(5)} s  ${status}\n`);
	}
	if (unitFiles.length) {
		process.stdout.write(`slowest unit and engine files (of ${unitFiles.length}):\n`);
		for (const f of unitFiles.slice(0, 5)) {
			process.stdout.write(`  ${f.file.padEnd(width - 2)} ${f.seconds.toFixed(0).padStart(5)} s\n`);
		}
	}
	const slowTests = lines
		.filter((l): l is TestTiming => l.kind === 'test' && l.project === 'e2e')
		.sort((a, b) => b.seconds - a.seconds)
		.slice(0, 8);
	if (slowTests.length) {
		process.stdout.write('slowest end-to-end tests:\n');
		for (const t of slowTests) {
			const name = `${path.basename(t.file, '.test.ts')}: ${t.title}`;
			process.stdout.write(`  ${t.seconds.toFixed(0).padStart(5)} s  ${name.slice(0, 110)}\n`);
		}
	}
}

async function main(): Promise<void> {
	const started = Date.now();
	const [staticResults, unitResults] = await Promise.all([
		runLane(staticLane, false),
		runLane(unitLane, true),
	]);
	const results = [...staticResults, ...unitResults];
	const built = staticResults.some((r) => r.name === 'build' && r.ok);
	if (!quick) {
		if (built) results.push(...(await runLane([e2e], false)));
		else process.stdout.write(`✘ ${e2e.name} not run: the build failed\n`);
	}
	printTable(results, (Date.now() - started) / 1000);

	const runs = readTimings().filter((l): l is RunCount => l.kind === 'run');
	const sum = (key: 'passed' | 'failed' | 'skipped') => runs.reduce((n, r) => n + r[key], 0);
	const failedSteps = results.filter((r) => !r.ok).map((r) => r.name);
	const plannedSteps = staticLane.length + unitLane.length + (quick ? 0 : 1);
	const notRun = plannedSteps - results.length;
	if (failedSteps.length) process.stdout.write(`\nFailed: ${failedSteps.join(', ')}\n`);
	if (notRun) process.stdout.write(`${notRun} step(s) not run after a failure\n`);
	// The closing line CI reads: every jest run's tests together.
	process.stdout.write(
		`\ntests: ${sum('passed')} passed, ${sum('failed') + (failedSteps.length && !sum('failed') ? 1 : 0)} failed, ${sum('skipped')} skipped\n`,
	);
	process.exitCode = failedSteps.length || notRun ? 1 : 0;
}

void main();
