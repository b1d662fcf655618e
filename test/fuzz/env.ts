/**
 * Imported first by the fuzz runner, before anything loads n8n-core: the bench's temp user folder
 * and key, and n8n's logger silenced (jest does that for `npm test` by running with NODE_ENV=test;
 * here n8n would print every node error of thousands of runs).
 */
import '../bench/support/env';

process.env.N8N_LOG_LEVEL ??= 'silent';
