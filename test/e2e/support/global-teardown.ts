/** After the end-to-end files: every shared n8n stopped, its user folder and the run's folder removed. */
import { rm } from 'node:fs/promises';

import { RUN_DIR_VARIABLE, stopSharedN8ns } from './shared-n8n';

export default async function globalTeardown(): Promise<void> {
	const runDir = process.env[RUN_DIR_VARIABLE];
	if (!runDir) return;
	await stopSharedN8ns(runDir);
	await rm(runDir, { recursive: true, force: true });
}
