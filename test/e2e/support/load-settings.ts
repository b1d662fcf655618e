/**
 * n8n settings for the files that run hundreds or thousands of executions (relay load, queue mode,
 * the examples' 200-at-once runs). n8n 2.41's default `vm` expression engine builds a fresh
 * isolate for every execution, about 0.3 s of CPU on two cores, which made these files most of
 * the suite's time. Both settings below are n8n's own and leave the engine and what expressions
 * do unchanged; they only make isolates cheaper. Measured with 300 relays to a trigger-only
 * workflow: 75 s with n8n's defaults, 57 s with the compile cache, 27 s with lazy acquisition
 * (n8n's `legacy` engine: 18 s). Every other end-to-end file runs n8n's defaults as a user gets them.
 */
export const LOAD_N8N_ENV: Record<string, string> = {
	// An isolate only when an expression reaches the engine: a trigger-only workflow needs none.
	N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
	// V8's compile cache for the runtime bundle each isolate loads (V8 recompiles if it is stale).
	N8N_EXPRESSION_ENGINE_COMPILE_CACHE: 'true',
};
