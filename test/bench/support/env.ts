/**
 * Imported first by the bench entry, before anything loads n8n-core: n8n-core keeps an
 * encryption key in its user folder, so give it a temp folder (never the home folder) and a
 * key, which also keeps its "generating a key" log line out of the JSON output.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

if (!process.env.N8N_USER_FOLDER?.startsWith(tmpdir())) {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'n8n-phonovation-bench-'));
}
process.env.N8N_ENCRYPTION_KEY ??= randomBytes(24).toString('base64');
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
