/** n8n 2.41's expression engines: `vm` (its default, isolates) and `legacy` (in-process). */
export type ExpressionEngine = 'vm' | 'legacy';

const FLAG = '--expression-engine=';

/**
 * The engine the real n8n of `relay-throughput` runs (`N8N_EXPRESSION_ENGINE`): the
 * `--expression-engine=` flag, else PHONOVATION_BENCH_EXPRESSION_ENGINE, else n8n's default. The
 * bench sets it itself because n8n is started with a clean environment (no inherited N8N_*).
 */
export function expressionEngineOf(
	argv: string[],
	env: NodeJS.ProcessEnv,
): { engine: ExpressionEngine; cases: string[] } {
	const flag = argv.find((arg) => arg.startsWith(FLAG));
	const engine = flag?.slice(FLAG.length) ?? env.PHONOVATION_BENCH_EXPRESSION_ENGINE ?? 'vm';
	if (engine !== 'vm' && engine !== 'legacy') {
		throw new Error(`The expression engine must be vm or legacy, not "${engine}"`);
	}
	return { engine, cases: argv.filter((arg) => !arg.startsWith(FLAG)) };
}
