/**
 * Before the end-to-end files: n8n installed, the package packed and n8n's user folder migrated
 * once (all cached between runs), and a folder for this run in which each jest worker notes the
 * n8n it shares between its files (shared-n8n.ts).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ensureN8nInstalled } from './install';
import { packPackage } from './pack';
import { RUN_DIR_VARIABLE } from './shared-n8n';
import { ensureUserFolderTemplate } from './user-folder-template';

export default async function globalSetup(): Promise<void> {
	const log = (line: string) => void process.stderr.write(`[e2e] ${line}\n`);
	const install = await ensureN8nInstalled({ log });
	await Promise.all([packPackage({ log }), ensureUserFolderTemplate(install, log)]);
	process.env[RUN_DIR_VARIABLE] ??= await mkdtemp(path.join(tmpdir(), 'phonovation-e2e-run-'));
}
