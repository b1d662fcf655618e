/**
 * The example workflows users import from `examples/<name>/workflow.json`, read by the e2e suite
 * and the demo (`npm start`). The files stay as a user gets them; what the suite needs on top
 * (a credential) is applied when importing, never written into the files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { WorkflowJson } from './n8n-client';
import { EXAMPLES_DIR } from './paths';

/** The example folders (kebab-case names), sorted. */
export function exampleNames(): string[] {
	return readdirSync(EXAMPLES_DIR, { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => entry.name)
		.sort();
}

/** Where an example's workflow file lives. */
export function exampleWorkflowPath(name: string): string {
	return path.join(EXAMPLES_DIR, name, 'workflow.json');
}

/** An example's workflow exactly as a user imports it. */
export function readExample(name: string): WorkflowJson {
	return JSON.parse(readFileSync(exampleWorkflowPath(name), 'utf8')) as WorkflowJson;
}

/** An example as the suite and the demo import it (bind a credential with withCredential / importWorkflow). */
export function loadExample(name: string): WorkflowJson {
	return readExample(name);
}
