/**
 * n8n settings for the files that run hundreds or thousands of executions. n8n 2.41's default `vm`
 * expression engine builds a fresh isolate for every execution, about 0.2 s of CPU on two cores,
 * which made these files most of the suite's time. Every file that checks what an expression
 * evaluates to, the examples included, runs n8n's defaults as a user gets them.
 */

/**
 * Relay load (a trigger-only workflow): the same `vm` engine, built only when an expression
 * reaches it (never, here), and with V8's compile cache for its runtime bundle. 300 relays took
 * 27 s instead of 75 s with n8n's defaults (57 s with the compile cache alone).
 */
export const LOAD_N8N_ENV: Record<string, string> = {
	N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
	N8N_EXPRESSION_ENGINE_COMPILE_CACHE: 'true',
};

/**
 * The 200-at-once runs of the examples, in one process and in queue mode: about 800 executions a
 * test, each evaluating expressions. They check that no run is lost, crossed or resumed twice, so
 * they run n8n's `legacy` engine, which needs no isolate: the two 200-at-once tests took 61 s and
 * 49 s instead of about 200 s each.
 */
export const MANY_EXECUTIONS_N8N_ENV: Record<string, string> = {
	N8N_EXPRESSION_ENGINE: 'legacy',
};
