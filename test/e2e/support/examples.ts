/**
 * The example workflows users import from `examples/<name>/workflow.json`, read by the e2e suite
 * and the demo (`npm start`). The files stay as a user gets them: no credential, a placeholder
 * sender and no webhook id (n8n's editor gives the trigger a fresh one on import). What the suite
 * and the demo need instead is filled in here, when loading, and never written into the files.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { DEFAULT_CONFIG } from '../../simulator';
import { type N8nClient, withNodeCredential, type WorkflowJson } from './n8n-client';
import { TYPES } from './package-types';
import { EXAMPLES_DIR } from './paths';
import { withSmtpCredential } from './smtp-sink';

/** The Sender every Phonovation node of an example carries until the user picks an approved one. */
export const SENDER_PLACEHOLDER = 'YOUR_SENDER_ID';

/** The number the AI example's review texts until the user puts the reviewer's own. */
export const REVIEWER_PLACEHOLDER = 'YOUR_REVIEWER_NUMBER';
/** Who the suite and the demo ask instead: the examples' sample phone (the demo's simulator phone). */
const SAMPLE_REVIEWER = '353871234567';

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
 * simulator approves (or `sender`), the placeholder Question Log by `questionLog` (an imported
 * inbox's id) when given, the inbox's keyword replies on (as a user who chose their Sender turns
 * them on; `keywordReplies: false` keeps the example's default), and each Phonovation Trigger or
 * Webhook node given exampleWebhookId (or `webhookId`; a Webhook node's path too). Bind a
 * credential with withCredential / importWorkflow.
 */
export interface ExampleOptions {
	sender?: string;
	questionLog?: string;
	keywordReplies?: boolean;
	webhookId?: string;
	/**
	 * The Relay URL's path instead of its webhook id: `<id>/phonovation` keeps the Production URL of
	 * an inbox that began with a Phonovation Trigger, as its README tells an upgrading user to set it.
	 */
	relayPath?: string;
	/** The inbox hands inbound texts no question took to this workflow (the sms-assistant). */
	assistantWorkflow?: string;
}

/** The inbox's Deliver Reply node, whose Assistant field names the assistant workflow. */
const INBOX_DELIVER_REPLY = 'Deliver to Waiting Question';

export function loadExample(name: string, options: ExampleOptions = {}): WorkflowJson {
	return asImported(readExample(name), name, options);
}

/** Any copy of an example (one kept from an earlier version, say) set up as loadExample sets it up. */
export function asImported(
	workflow: WorkflowJson,
	name: string,
	{
		sender = SIMULATOR_SENDER,
		questionLog,
		keywordReplies = true,
		webhookId,
		relayPath,
		assistantWorkflow = '',
	}: ExampleOptions = {},
): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (node.type === TYPES.trigger)
				return {
					...node,
					webhookId: webhookId ?? node.webhookId ?? exampleWebhookId(name, node.name),
				};
			// The inbox's relay URL: n8n's Webhook node, its path its webhookId (as n8n's import makes it).
			if (node.type === 'n8n-nodes-base.webhook') {
				const id = webhookId ?? exampleWebhookId(name, node.name);
				const path = relayPath ?? id;
				return { ...node, webhookId: id, parameters: { ...(node.parameters as object), path } };
			}
			if (node.name === INBOX_SETTINGS)
				return settingsNodeWith(node, { keywordReplies, assistantWorkflow });
			// An inbox before protocol 3 chose it in Settings (above): then its node has no Assistant.
			if (node.name === INBOX_DELIVER_REPLY && assistantWorkflow && !choosesInSettings(workflow))
				return assistantNodeWith(node, assistantWorkflow);
			let parameters = node.parameters as Record<string, unknown> | undefined;
			if (!ACTIONS.has(node.type) || !parameters) return node;
			if (parameters.from === SENDER_PLACEHOLDER) parameters = { ...parameters, from: sender };
			if (parameters.recipients === REVIEWER_PLACEHOLDER)
				parameters = { ...parameters, recipients: SAMPLE_REVIEWER };
			const log = parameters.questionLog as { value?: unknown } | undefined;
			if (questionLog && log?.value === QUESTION_LOG_PLACEHOLDER) {
				parameters = { ...parameters, questionLog: { __rl: true, mode: 'id', value: questionLog } };
			}
			return { ...node, parameters };
		}),
	};
}

/**
 * A workflow as n8n's editor imports it (Import ▸ From File): each Phonovation Trigger gets a fresh
 * webhook id, and a Webhook node whose path is empty gets one and that id as its path.
 */
export function asEditorImports(workflow: WorkflowJson): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const parameters = (node.parameters ?? {}) as Record<string, unknown>;
			if (node.type === TYPES.trigger) return { ...node, webhookId: randomUUID() };
			if (node.type !== 'n8n-nodes-base.webhook' || parameters.path !== '') return node;
			const id = randomUUID();
			return { ...node, webhookId: id, parameters: { ...parameters, path: id } };
		}),
	};
}

/** Our action node types: the node itself and n8n's AI tool and human review made from it. */
const ACTIONS = new Set<string>([TYPES.action, TYPES.tool, TYPES.review]);

/**
 * The inbox's Set node: `keywordReplies` turns its paid keyword answers on (before protocol 3,
 * `assistantWorkflow` chose the assistant).
 */
const INBOX_SETTINGS = 'Settings';

/** The inbox with `assistantId` chosen as its Assistant, as a user picks it from the list. */
export function withAssistant(workflow: WorkflowJson, assistantId: string): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === INBOX_DELIVER_REPLY ? assistantNodeWith(node, assistantId) : node,
		),
	};
}

function assistantNodeWith(node: WorkflowJson['nodes'][number], assistantId: string) {
	const parameters = node.parameters as Record<string, unknown>;
	return {
		...node,
		parameters: { ...parameters, assistant: { __rl: true, mode: 'list', value: assistantId } },
	};
}

/** An inbox of protocol 2 or before, whose Settings node holds `assistantWorkflow`. */
function choosesInSettings(workflow: WorkflowJson): boolean {
	const settings = workflow.nodes.find((node) => node.name === INBOX_SETTINGS);
	const set = settings?.parameters as
		{ assignments?: { assignments?: Array<{ name: string }> } } | undefined;
	return Boolean(set?.assignments?.assignments?.some((a) => a.name === 'assistantWorkflow'));
}

function settingsNodeWith(node: WorkflowJson['nodes'][number], values: Record<string, unknown>) {
	const set = node.parameters as { assignments: { assignments: Array<{ name: string }> } };
	const assignments = set.assignments.assignments.map((assignment) =>
		Object.hasOwn(values, assignment.name)
			? { ...assignment, value: values[assignment.name] }
			: assignment,
	);
	return { ...node, parameters: { ...set, assignments: { assignments } } };
}

/**
 * The inbox imported and published as a suite's Question Log, on a webhook of its own so that the
 * suite's own inbox keeps the example's. Every copy of the inbox keeps its questions in the same
 * `questions` Data Table, so any of them finds a question another recorded.
 */
export async function publishQuestionLog(env: {
	importWorkflow(workflow: WorkflowJson): Promise<{ id: string }>;
	client: N8nClient;
}): Promise<string> {
	const inbox = loadExample('inbox', { webhookId: exampleWebhookId('inbox', 'question log') });
	const { id } = await env.importWorkflow({ ...inbox, name: `${inbox.name} (question log)` });
	await env.client.publishWorkflow(id);
	return id;
}

/** The columns of the `questions` Data Table the inbox keeps (all text). */
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

/** The simulator's OpenAI-compatible chat model as an OpenAI credential (any key works). */
export async function createSimulatorOpenAi(
	client: N8nClient,
	simUrl: string,
	name = 'OpenAI (simulator)',
): Promise<{ id: string; name: string }> {
	return await client.createCredential(name, 'openAiApi', {
		apiKey: 'sk-simulator',
		url: `${simUrl}/v1`,
	});
}

/** The workflow with its OpenAI Chat Model node using the credential, as a user picks it. */
export function withOpenAi(
	workflow: WorkflowJson,
	credential: { id: string; name: string },
	model = 'OpenAI Chat Model',
): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === model
				? { ...node, credentials: { openAiApi: { id: credential.id, name: credential.name } } }
				: node,
		),
	};
}

/** The login the tests give staff for the sms-assistant's Staff Reply Form (Basic Auth). */
export const STAFF_LOGIN = { user: 'reception', password: 'a-long-staff-password' };

/**
 * The sms-assistant as its README sets it up: the simulator's chat model in OpenAI Chat Model, an
 * SMTP credential in Tell Staff and a Basic Auth credential (STAFF_LOGIN) in Staff Reply Form: n8n
 * publishes no workflow with a node missing its credential. Without `smtp`, one pointing at no
 * server: for tests where nobody asks for a person.
 */
export async function assistantExample(
	client: N8nClient,
	simUrl: string,
	questionLog: string,
	smtp?: { id: string; name: string },
): Promise<WorkflowJson> {
	const openAi = await createSimulatorOpenAi(client, simUrl);
	const mail =
		smtp ??
		(await client.createCredential('Staff mail (no server)', 'smtp', {
			user: '',
			password: '',
			host: '127.0.0.1',
			port: 9,
			secure: false,
			disableStartTls: true,
		}));
	const login = await client.createCredential('Staff form login', 'httpBasicAuth', STAFF_LOGIN);
	const example = withSmtpCredential(
		withOpenAi(loadExample('sms-assistant', { questionLog }), openAi),
		{ id: String(mail.id), name: mail.name },
	);
	return withStaffLogin(example, { id: String(login.id), name: login.name });
}

/** The workflow with its Staff Reply Form behind the Basic Auth credential. */
export const withStaffLogin = (
	workflow: WorkflowJson,
	credential: { id: string; name: string },
): WorkflowJson =>
	withNodeCredential(
		workflow,
		(node) => node.name === 'Staff Reply Form',
		'httpBasicAuth',
		credential,
	);
