// n8n-core's InstanceSettings writes an encryption key into the user folder on first use:
// keep it in a temp dir, never in the home folder. Runs before any test module loads n8n-core.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

if (!process.env.N8N_USER_FOLDER || !process.env.N8N_USER_FOLDER.startsWith(tmpdir())) {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'n8n-phonovation-test-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
