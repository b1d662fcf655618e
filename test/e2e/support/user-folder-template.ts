/**
 * A user folder n8n has already migrated (its SQLite database, the owner account, its encryption
 * key), made once per n8n install and copied for every start: a fresh n8n then skips the
 * migrations and the owner setup, which are most of its start-up.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { N8nInstall } from './install';
import { withLock } from './lock';
import { N8nClient } from './n8n-client';
import { startN8n } from './n8n-process';

export interface UserFolderTemplate {
	folder: string;
	encryptionKey: string;
}

const MARKER = '.phonovation-template.json';

/** Runtime files n8n leaves that a copy must not carry (its log, crash journal, sockets). */
const TRANSIENT_FILES = [
	'n8n.log',
	path.join('.n8n', 'crash.journal'),
	path.join('.n8n', 'n8nEventLog.log'),
];

async function readTemplate(folder: string): Promise<UserFolderTemplate | undefined> {
	try {
		const { encryptionKey } = JSON.parse(await readFile(path.join(folder, MARKER), 'utf8')) as {
			encryptionKey: string;
		};
		return { folder, encryptionKey };
	} catch {
		return undefined;
	}
}

/** The template for this n8n install, made on first use (one n8n start, under a lock). */
export async function ensureUserFolderTemplate(
	install: N8nInstall,
	log: (line: string) => void = () => undefined,
): Promise<UserFolderTemplate> {
	const folder = `${install.dir}.user-folder`;
	const ready = await readTemplate(folder);
	if (ready) return ready;
	return await withLock(
		`${folder}.lock`,
		(pid) => log(`Waiting for process ${pid}, which is preparing n8n's user folder`),
		async () => {
			const made = await readTemplate(folder);
			if (made) return made;
			log("Preparing n8n's user folder once (database migrations, owner account)");
			const encryptionKey = randomBytes(24).toString('hex');
			const work = await mkdtemp(`${folder}-making-`);
			const n8n = await startN8n({
				install,
				userFolder: work,
				env: { N8N_ENCRYPTION_KEY: encryptionKey },
			});
			try {
				await N8nClient.forOwner(n8n.url);
			} finally {
				await n8n.stop();
			}
			for (const file of TRANSIENT_FILES) await rm(path.join(work, file), { force: true });
			await writeFile(path.join(work, MARKER), JSON.stringify({ encryptionKey }));
			if (existsSync(folder)) await rm(folder, { recursive: true, force: true });
			await rename(work, folder);
			return { folder, encryptionKey };
		},
	);
}
