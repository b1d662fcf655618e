/**
 * The example workflows users import from `examples/<name>/workflow.json`, read by the e2e suite
 * and the demo (`npm start`). The files stay as a user gets them: no credential, a placeholder
 * sender and no webhook id (n8n's editor gives the trigger a fresh one on import). What the suite
 * and the demo need instead is filled in here, when loading, and never written into the files.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { DEFAULT_CONFIG } from '../../simulator';
import type { N8nClient, WorkflowJson } from './n8n-client';
import { TYPES } from './package-types';
import { EXAMPLES_DIR } from './paths';

/** The Sender every Phonovation node of an example carries until the user picks an approved one. */
export const SENDER_PLACEHOLDER = 'YOUR_SENDER_ID';

/** The Question Log every asking or delivering node of an example names until the user picks theirs. */
export const QUESTION_LOG_PLACEHOLDER = 'YOUR_QUESTION_LOG';

/** A sender the simulator approves by default (ComReg registered, delivered to Irish numbers). */
const SIMULATOR_SENDER = DEFAULT_CONFIG.senders.find((sender) => sender.type === 0)!.name;

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

/**
 * A webhook id that is the same on every run for one example's trigger, so its production URL is known before import.
 */
export function exampleWebhookId(name: string, nodeName: string): string {
	const hex = createHash('sha256').update(`examples/${name}#${nodeName}`).digest('hex');
	const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * An example as the suite and the demo import it: the placeholder sender replaced by one the
 * simulator approves (or `sender`), the placeholder Question Log by `questionLog` (the imported
 * question-log workflow's id) when given, and each Phonovation Trigger given exampleWebhookId.
 * Bind a credential with withCredential / importWorkflow.
 */
export function loadExample(
	name: string,
	{ sender = SIMULATOR_SENDER, questionLog }: { sender?: string; questionLog?: string } = {},
): WorkflowJson {
	const workflow = readExample(name);
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (node.type === TYPES.trigger)
				return { ...node, webhookId: node.webhookId ?? exampleWebhookId(name, node.name) };
			let parameters = node.parameters as Record<string, unknown> | undefined;
			if (node.type !== TYPES.action || !parameters) return node;
			if (parameters.from === SENDER_PLACEHOLDER) parameters = { ...parameters, from: sender };
			const log = parameters.questionLog as { value?: unknown } | undefined;
			if (questionLog && log?.value === QUESTION_LOG_PLACEHOLDER) {
				parameters = { ...parameters, questionLog: { __rl: true, mode: 'id', value: questionLog } };
			}
			return { ...node, parameters };
		}),
	};
}

/** The columns of the `questions` Data Table examples/question-log keeps (all text). */
export const QUESTION_LOG_COLUMNS = [
	'reference',
	'phone',
	'resumeUrl',
	'askedAt',
	'expiresAt',
	'waitsFor',
	'settledBy',
] as const;

/** The Data Tables the examples use, created as a user creates them once: `opt-outs` and `questions`. */
export async function createExampleDataTables(client: N8nClient): Promise<{ optOuts: string }> {
	const optOuts = await client.createDataTable('opt-outs', [
		{ name: 'phone', type: 'string' },
		{ name: 'optedOutAt', type: 'string' },
	]);
	await client.createDataTable(
		'questions',
		QUESTION_LOG_COLUMNS.map((name) => ({ name, type: 'string' as const })),
	);
	return { optOuts: optOuts.id };
}
