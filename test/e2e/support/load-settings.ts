/**
 * n8n settings for the end-to-end files. n8n 2.41's default `vm` expression engine builds a fresh
 * isolate for every execution and every call of a trigger's webhook, about 0.2 s of CPU each on
 * two cores, which made the load files most of the suite's time.
 */

/**
 * The same `vm` engine, an isolate built only when an expression reaches it (a trigger's webhook
 * call or a trigger-only workflow needs none), and V8's compile cache for the runtime bundle each
 * isolate loads. What an expression evaluates to is unchanged. 300 relays to a trigger-only
 * workflow took 27 s instead of 75 s with n8n's defaults (57 s with the compile cache alone). The
 * shared n8n and relay load run it; the demo, the browser, crash and restart and the secrets file
 * run n8n exactly as installed.
 */
export const LAZY_ISOLATES_N8N_ENV: Record<string, string> = {
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
