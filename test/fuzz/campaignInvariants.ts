/**
 * `npm run fuzz`: the properties `npm test` runs with a fixed seed, over many more generated runs,
 * with a random seed printed first so that a failure can be replayed:
 * - `campaign`: the campaign invariants of test/nodes/Phonovation/resources/campaign/invariants.ts
 *   (about a tenth of a second a run);
 * - `delivery`: Deliver Reply and Deliver Receipt against hostile Question Log rows, replayed relays
 *   and resume URLs that fail (about 30 ms a run), and
 * - `numbering`: national forms of every country's numbers against libphonenumber-js (about a
 *   millisecond a run), both in test/nodes/Phonovation/resources/conversation/deliveryInvariants.ts;
 * - `reply`: Reply's promises (assistant/replyInvariants.ts beside it) over conversations with
 *   racing runs, slow and failing log writes, a second Reply node and retried executions (about
 *   0.4 s a run).
 *
 * Each runs FUZZ_RUNS runs with the same seed, the cheapest first; all run even when one fails, and
 * the last lines say which failed. At 5,000 runs each: about 36 minutes on 2 cores, 25 of them
 * Reply's and 10 the campaign's (their runs wait out timeouts, 429s and slowed log writes);
 * FUZZ_PROPERTY=numbering,delivery takes 2.
 *
 * - FUZZ_RUNS: how many runs of each property (default 5000).
 * - FUZZ_PROPERTY: which properties, comma-separated (default all: `campaign,delivery,numbering,reply`).
 * - FUZZ_SEED: replay a seed. FUZZ_PATH (printed on a failure, with its seed and property) goes
 *   straight to the shrunk counterexample of one property (`campaign` when FUZZ_PROPERTY is not
 *   set): `FUZZ_SEED=123 FUZZ_PROPERTY=delivery FUZZ_PATH="45:1:0" npm run fuzz`.
 * - FUZZ_IGNORE: labels of violations not to count, comma-separated (`3n`, `4`…, see `violationsOf`
 *   in each property's file; `1u`, `2age`, `N`… for the conversation ones), to look past one
 *   already reported. `npm test` ignores none.
 * - FUZZ_SURVEY=1: do not stop at the first broken promise: count every run's by label and print,
 *   per property and label, how many runs broke it and the first such run (unshrunk, with its run
 *   number), so that one run of the fuzzer shows every kind of defect the code has. Exits 1 if any
 *   was found.
 */
import './env';

import fc from 'fast-check';

import { phonovationFixture } from '../nodes/Phonovation/fixture';
import { campaignProperty, labelOf } from '../nodes/Phonovation/resources/campaign/invariants';
import {
	deliveryFuzz,
	type FuzzedProperty,
	numberingFuzz,
	replyFuzz,
} from './conversationInvariants';

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

/** The campaign's money promises against the provider simulator. */
const campaignFuzz: FuzzedProperty = {
	name: 'campaign',
	labelOf,
	async start({ ignore, survey, ran }) {
		const fixture = await phonovationFixture();
		const property = campaignProperty(() => fixture, {
			ignore,
			survey,
			// Any run slower than 5 s is shown (shrinking runs count too).
			onRun: (run, ms) => {
				if (ms > 5000)
					log(
						`a run took ${(ms / 1000).toFixed(1)} s: ${JSON.stringify({ items: run.items.length, faults: run.faults, retry: run.retry })}`,
					);
				ran();
			},
		});
		return { property, stop: async () => await fixture.stop() };
	},
};

/** Cheapest first: a broken promise in a property that takes seconds shows before one that takes minutes. */
const PROPERTIES = [numberingFuzz, deliveryFuzz, replyFuzz, campaignFuzz];

interface Settings {
	seed: number;
	numRuns: number;
	path: string | undefined;
	ignore: string[];
	surveying: boolean;
}

/** Runs one property; true when it kept every promise. */
async function fuzz(fuzzed: FuzzedProperty, settings: Settings): Promise<boolean> {
	const { seed, numRuns, path, ignore, surveying } = settings;
	const name = fuzzed.name;
	const started = Date.now();
	let done = 0;
	/** Per label: runs that broke it, and the first of them. */
	const found = new Map<
		string,
		{ runs: number; first: { run: number; problems: string[]; described: string } }
	>();
	const survey = (problems: string[], describe: () => string) => {
		for (const label of new Set(problems.map(fuzzed.labelOf))) {
			const entry = found.get(label);
			if (entry) entry.runs++;
			else
				found.set(label, {
					runs: 1,
					first: {
						run: done,
						problems: problems.filter((p) => fuzzed.labelOf(p) === label),
						described: describe(),
					},
				});
		}
	};
	const { property, stop } = await fuzzed.start({
		ignore,
		...(surveying ? { survey } : {}),
		// Progress on stderr every 250 runs (shrinking runs count too).
		ran: () => {
			if (++done % 250 === 0) log(`${name}: ${done} runs, ${seconds(started)}`);
		},
		log,
	});
	try {
		const details = await fc.check(property, { seed, numRuns, path });
		if (surveying) {
			for (const [label, { runs, first }] of [...found].sort(([a], [b]) => a.localeCompare(b))) {
				out(
					`\n── ${name} ${label}: broken in ${runs} of ${done} runs; the first, run ${first.run} (unshrunk):\n${first.problems.join('\n')}\nRun:\n${first.described}`,
				);
			}
			const summary = [...found].map(([label, { runs }]) => `${label} ${runs}`).join(', ');
			out(
				`\n${name}: ${found.size ? `FOUND: ${summary}` : 'OK: nothing broken'} in ${done} runs, ${seconds(started)} (seed ${seed})`,
			);
			return found.size === 0;
		}
		if (!details.failed) {
			out(`${name}: OK: ${details.numRuns} runs in ${seconds(started)} (seed ${seed})`);
			return true;
		}
		out(`\n${name}: ${fc.defaultReportMessage(details) ?? 'the property failed'}`);
		const error = details.errorInstance as Error | undefined;
		if (error) out(`\nThe broken promise(s):\n${error.message}`);
		out(`\n${name}: FAILED after ${seconds(started)}. Replay the shrunk counterexample with:`);
		out(
			`  FUZZ_SEED=${seed} FUZZ_PROPERTY=${name} FUZZ_PATH="${details.counterexamplePath}"${ignore.length ? ` FUZZ_IGNORE=${ignore.join(',')}` : ''} npm run fuzz`,
		);
		return false;
	} finally {
		await stop();
	}
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
	const names = PROPERTIES.map((p) => p.name);
	const asked = (process.env.FUZZ_PROPERTY ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	// A path is one property's counterexample: the campaign's, as printed before the others ran too.
	const chosen = asked.length > 0 ? asked : path ? ['campaign'] : names;
	const unknown = chosen.filter((name) => !names.includes(name));
	if (unknown.length > 0)
		throw new Error(`FUZZ_PROPERTY: no property ${unknown.join(', ')} (${names.join(', ')})`);
	if (path && chosen.length > 1)
		throw new Error(
			`FUZZ_PATH replays one property: set FUZZ_PROPERTY to one of ${chosen.join(', ')}`,
		);
	out(
		`seed ${seed} (replay: FUZZ_SEED=${seed} npm run fuzz), ${path ? `path ${path}` : `${numRuns} runs each`}${surveying ? ', survey' : ''}: ${chosen.join(', ')}`,
	);
	if (ignore.length > 0) log(`not counting violations labelled ${ignore.join(', ')} (FUZZ_IGNORE)`);
	const settings: Settings = { seed, numRuns, path, ignore, surveying };
	const started = Date.now();
	const failed: string[] = [];
	for (const fuzzed of PROPERTIES.filter((p) => chosen.includes(p.name)))
		if (!(await fuzz(fuzzed, settings))) failed.push(fuzzed.name);
	out(
		`\n${failed.length ? `FAILED: ${failed.join(', ')}` : `OK: ${chosen.join(', ')}`} in ${seconds(started)} (seed ${seed})`,
	);
	if (failed.length > 0) process.exitCode = 1;
}

void main();
