import { homedir } from 'node:os';
import path from 'node:path';

/** The repository this suite tests (the package that gets packed). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** The pinned n8n runtime: package.json and package-lock.json, installed elsewhere. */
export const N8N_RUNTIME_SPEC_DIR = path.join(REPO_ROOT, 'test', 'e2e', 'n8n');

/** The user-importable example workflows (`examples/<name>/workflow.json`), run by the suite and the demo. */
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

/**
 * Where the n8n install and packed tarballs are cached between runs: outside the repository,
 * so jest and TypeScript never crawl 3 GB of node_modules.
 */
export function cacheRoot(): string {
	return process.env.PHONOVATION_E2E_CACHE || path.join(homedir(), '.cache', 'n8n-phonovation-e2e');
}
