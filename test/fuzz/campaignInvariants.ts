/**
 * `npm run fuzz`: the campaign invariants of test/nodes/Phonovation/resources/campaign/invariants.ts
 * (the property `npm test` runs 200 times with a fixed seed) over many more generated runs, with a
 * random seed printed first so that a failure can be replayed.
 *
 * - FUZZ_RUNS: how many runs (default 5000; about a tenth of a second each).
 * - FUZZ_SEED: replay a seed. FUZZ_PATH (printed on a failure, with its seed) goes straight to the
 *   shrunk counterexample: `FUZZ_SEED=123 FUZZ_PATH="45:1:0" npm run fuzz`.
 * - FUZZ_IGNORE: labels of violations not to count, comma-separated (`3n`, `4`…, see
 *   `violationsOf`), to look past one already reported. `npm test` ignores none.
 * - FUZZ_SURVEY=1: do not stop at the first broken promise: count every run's by label and print,
 *   per label, how many runs broke it and the first such run (unshrunk, with its run number), so
 *   that one run of the fuzzer shows every kind of defect the code has. Exits 1 if any was found.
 */
import './env';

import fc from 'fast-check';

import { phonovationFixture } from '../nodes/Phonovation/fixture';
import { campaignProperty, labelOf } from '../nodes/Phonovation/resources/campaign/invariants';

const log = (line: string) => process.stderr.write(`[fuzz] ${line}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function intFromEnv(name: string, fallback: number): number {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not "${raw}"`);
	return value;
}

async function main(): Promise<void> {
	const seed = intFromEnv('FUZZ_SEED', Math.floor(Math.random() * 2 ** 31));
	const numRuns = intFromEnv('FUZZ_RUNS', 5000);
	const path = process.env.FUZZ_PATH || undefined;
	const ignore = (process.env.FUZZ_IGNORE ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	const surveying = !!process.env.FUZZ_SURVEY && process.env.FUZZ_SURVEY !== '0';
	out(
		`seed ${seed} (replay: FUZZ_SEED=${seed} npm run fuzz), ${path ? `path ${path}` : `${numRuns} runs`}${surveying ? ', survey' : ''}`,
	);
	if (ignore.length > 0) log(`not counting violations labelled ${ignore.join(', ')} (FUZZ_IGNORE)`);
	const fixture = await phonovationFixture();
	const started = Date.now();
	let done = 0;
	/** Per label: runs that broke it, and the first of them. */
	const found = new Map<
		string,
		{ runs: number; first: { run: number; problems: string[]; described: string } }
	>();
	const survey = (problems: string[], describe: () => string) => {
		for (const label of new Set(problems.map(labelOf))) {
			const entry = found.get(label);
			if (entry) entry.runs++;
			else
				found.set(label, {
					runs: 1,
					first: {
						run: done,
						problems: problems.filter((p) => labelOf(p) === label),
						described: describe(),
					},
				});
		}
	};
	const property = campaignProperty(() => fixture, {
		ignore,
		...(surveying ? { survey } : {}),
		// Progress on stderr every 250 runs (shrinking runs count too), and any run slower than 5 s.
		onRun: (run, ms) => {
			if (ms > 5000)
				log(
					`a run took ${(ms / 1000).toFixed(1)} s: ${JSON.stringify({ items: run.items.length, faults: run.faults, retry: run.retry })}`,
				);
			if (++done % 250 === 0) log(`${done} runs, ${seconds(started)}`);
		},
	});
	try {
		const details = await fc.check(property, { seed, numRuns, path });
		if (surveying) {
			for (const [label, { runs, first }] of [...found].sort(([a], [b]) => a.localeCompare(b))) {
				out(
					`\n── ${label}: broken in ${runs} of ${done} runs; the first, run ${first.run} (unshrunk):\n${first.problems.join('\n')}\nRun:\n${first.described}`,
				);
			}
			const summary = [...found].map(([label, { runs }]) => `${label} ${runs}`).join(', ');
			out(
				`\n${found.size ? `FOUND: ${summary}` : 'OK: nothing broken'} in ${done} runs, ${seconds(started)} (seed ${seed})`,
			);
			if (found.size) process.exitCode = 1;
			return;
		}
		if (!details.failed) {
			out(`OK: ${details.numRuns} runs in ${seconds(started)} (seed ${seed})`);
			return;
		}
		out(fc.defaultReportMessage(details) ?? 'the property failed');
		const error = details.errorInstance as Error | undefined;
		if (error) out(`\nThe broken promise(s):\n${error.message}`);
		out(`\nFAILED after ${seconds(started)}. Replay the shrunk counterexample with:`);
		out(
			`  FUZZ_SEED=${seed} FUZZ_PATH="${details.counterexamplePath}"${ignore.length ? ` FUZZ_IGNORE=${ignore.join(',')}` : ''} npm run fuzz`,
		);
		process.exitCode = 1;
	} finally {
		await fixture.stop();
	}
}

void main();
