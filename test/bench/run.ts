/**
 * `npm run bench` runs every case; `npm run bench -- token-reuse big-campaign` runs only those;
 * `--expression-engine=legacy` (or PHONOVATION_BENCH_EXPRESSION_ENGINE) picks the expression
 * engine of the real n8n that `relay-throughput` and `hostile-body` start (n8n's default `vm` otherwise).
 * Prints one JSON object per case on stdout as it finishes, then a short table. Progress goes
 * to stderr. Only ratios between contenders measured side by side in this run mean anything.
 */
import './support/env';

import { assistantStorm, assistantStormFloor, assistantStormHistory } from './cases/assistantStorm';
import { bigCampaign } from './cases/bigCampaign';
import { bulk100k } from './cases/bulk100k';
import { hostileBody } from './cases/hostileBody';
import { personalised1k } from './cases/personalised1k';
import { personalised1kTls } from './cases/personalised1kTls';
import { rateLimited1k } from './cases/rateLimited1k';
import { relayThroughput } from './cases/relayThroughput';
import { tokenReuse } from './cases/tokenReuse';
import { type ExpressionEngine, expressionEngineOf } from './support/expressionEngine';
import { canCollectGarbage, collectGarbage } from './support/heap';
import { type CaseResult, failed, jsonLine, table } from './support/report';

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const CASES: Record<string, (engine: ExpressionEngine) => Promise<CaseResult>> = {
	'bulk-100k': () => bulk100k({ log }),
	'token-reuse': () => tokenReuse(),
	'big-campaign': () => bigCampaign(),
	'personalised-1k': () => personalised1k({ log }),
	'personalised-300': () => personalised1k({ name: 'personalised-300', items: 300, log }),
	'personalised-1k-tls': () => personalised1kTls({ log }),
	'rate-limited-1k': () => rateLimited1k({ log }),
	'relay-throughput': (expressionEngine) => relayThroughput({ log, expressionEngine }),
	'hostile-body': (expressionEngine) => hostileBody({ log, expressionEngine }),
	'assistant-storm': () => assistantStorm({ log }),
	'assistant-storm-default': () => assistantStorm({ log, modes: ['default'] }),
	'assistant-storm-queue': () => assistantStorm({ log, modes: ['queue'] }),
	// A light storm (nobody waits on a backlog): what each text costs n8n, in CPU ms.
	'assistant-storm-light': () =>
		assistantStorm({ log, modes: ['default'], people: 12, seconds: 40 }),
	// The light storm with 10 and with 2,000 logged messages per person: is a text's cost flat?
	'assistant-storm-history': () => assistantStormHistory({ log }),
	// The storm through the templates' debounce on Redis and on a Data Table: a one-execution floor.
	'assistant-storm-floor': () => assistantStormFloor({ log }),
};

function selectedCases(argv: string[]): string[] {
	if (argv.includes('--help') || argv.includes('-h')) {
		process.stdout.write(
			`Usage: npm run bench [-- <case> ...] [--expression-engine=vm|legacy]\nCases: ${Object.keys(CASES).join(', ')}\n`,
		);
		process.exit(0);
	}
	const unknown = argv.filter((name) => !(name in CASES));
	if (unknown.length > 0) {
		process.stderr.write(
			`Unknown case ${unknown.join(', ')}. Cases: ${Object.keys(CASES).join(', ')}\n`,
		);
		process.exit(2);
	}
	return argv.length > 0 ? argv : Object.keys(CASES);
}

async function main(): Promise<void> {
	const { engine, cases } = expressionEngineOf(process.argv.slice(2), process.env);
	const names = selectedCases(cases);
	if (!canCollectGarbage) log('garbage collection cannot be forced; heap figures are noisier');
	const results: CaseResult[] = [];
	for (const name of names) {
		log(`${name} …`);
		const started = Date.now();
		collectGarbage();
		let result: CaseResult;
		try {
			result = await CASES[name](engine);
		} catch (error) {
			result = failed(name, error);
		}
		results.push(result);
		process.stdout.write(`${jsonLine(result)}\n`);
		log(`${name} done in ${Math.round((Date.now() - started) / 1000)} s`);
	}
	process.stdout.write(`\n${table(results)}\n`);
	if (results.some((r) => 'error' in r.line)) process.exitCode = 1;
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
	process.exitCode = 1;
});
