import { Agent, fetch } from 'undici';

import { parseFlatted } from './flatted';
import {
	droppedConnection,
	networkCode,
	noteTransient,
	refusedConnection,
	sleep,
	TRANSIENT_WAIT_MS,
} from './machine';

/**
 * n8n closes a connection after 5 s idle. undici would reuse one for up to 4 s, and on a loaded
 * machine its timer runs late, so a request could go out on a connection n8n was closing ("other
 * side closed"). Idle connections are let go after 1 s instead.
 */
const connections = new Agent({ keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 });

/** undici's bare "fetch failed", with the call and the network error's code. */
function callFailed(method: string, path: string, error: unknown): Error {
	return new Error(`${method} ${path}: ${(error as Error).message} (${networkCode(error)})`, {
		cause: error,
	});
}

/** The owner account every test instance and the demo create (local, throwaway instances only). */
export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Phonovation-Demo-1',
};

export interface WorkflowJson {
	name: string;
	nodes: Array<Record<string, unknown> & { name: string; type: string }>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	pinData?: Record<string, unknown>;
	[key: string]: unknown;
}

/** The workflow with every node `matches` picks bound to a credential of type `type`. */
export function withNodeCredential(
	workflow: WorkflowJson,
	matches: (node: WorkflowJson['nodes'][number]) => boolean,
	type: string,
	credential: { id: string; name: string },
): WorkflowJson {
	const bound = { id: String(credential.id), name: credential.name };
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			matches(node) ? { ...node, credentials: { [type]: bound } } : node,
		),
	};
}

export interface StoredWorkflow extends WorkflowJson {
	id: string;
	versionId: string;
	active: boolean;
	activeVersionId?: string | null;
}

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished?: boolean;
	startedAt?: string;
	stoppedAt?: string;
}

export interface NodeRun {
	/** Items per output, as the next nodes received them. */
	outputs: Array<Array<{ json: Record<string, unknown> }>>;
	error?: { message?: string; description?: string; [key: string]: unknown };
}

export interface Execution extends ExecutionSummary {
	/** The parsed run data: resultData.runData, resultData.error, lastNodeExecuted… */
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{
					data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
					error?: NodeRun['error'];
				}>
			>;
			error?: { message?: string; description?: string; [key: string]: unknown };
			lastNodeExecuted?: string;
		};
		/** What a Retry resumes from: the node stack and each node's context (`getContext('node')`). */
		executionData?: { contextData?: Record<string, unknown>; nodeExecutionStack?: unknown[] };
	};
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface Holdings {
	workflows: string[];
	credentials: string[];
	dataTables: string[];
}

export class N8nApiError extends Error {
	constructor(
		readonly status: number,
		readonly method: string,
		readonly path: string,
		readonly body: string,
	) {
		super(`n8n answered ${status} to ${method} ${path}: ${body.slice(0, 500)}`);
	}
}

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * n8n's own REST API (what the editor uses), logged in as the owner with the session cookie.
 * Every method returns what n8n stored or computed: scenarios assert on these, not on logs.
 */
export class N8nClient {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	/**
	 * Creates the owner on a fresh instance (which logs in), or logs in when it exists. A session
	 * cookie from an earlier client of the same n8n is used while n8n still accepts it: n8n allows
	 * five logins a minute per user, which files sharing one n8n would otherwise run into.
	 */
	static async forOwner(baseUrl: string, sessionCookie?: string): Promise<N8nClient> {
		const client = new N8nClient(baseUrl);
		if (sessionCookie) {
			client.cookie = sessionCookie;
			try {
				await client.call('GET', '/rest/login');
				return client;
			} catch (error) {
				if (!(error instanceof N8nApiError) || error.status !== 401) throw error;
				client.cookie = '';
			}
		}
		try {
			await client.call('POST', '/rest/owner/setup', OWNER);
		} catch (error) {
			if (!(error instanceof N8nApiError) || error.status !== 400) throw error;
		}
		if (!client.cookie) await client.login();
		return client;
	}

	/** The session cookie, for a later client of the same n8n (see forOwner). */
	get sessionCookie(): string {
		return this.cookie;
	}

	async login(): Promise<void> {
		await this.call('POST', '/rest/login', {
			emailOrLdapLoginId: OWNER.email,
			password: OWNER.password,
		});
		if (!this.cookie) throw new Error('n8n did not issue a session cookie on login');
	}

	/**
	 * One REST call; unwraps n8n's `{ data }` envelope. n8n's transient refusals, which it gives
	 * before it does anything (503 while its database or workers catch up on a busy machine, a
	 * refused connection), are waited out for up to TRANSIENT_WAIT_MS and noted for the failure
	 * message (machine.ts).
	 */
	async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const deadline = Date.now() + TRANSIENT_WAIT_MS;
		for (let attempt = 1; ; attempt++) {
			let response: Awaited<ReturnType<typeof fetch>>;
			try {
				response = await fetch(`${this.baseUrl}${path}`, {
					dispatcher: connections,
					method,
					headers: {
						...(body === undefined ? {} : { 'content-type': 'application/json' }),
						...(this.cookie ? { cookie: this.cookie } : {}),
					},
					body: body === undefined ? undefined : JSON.stringify(body),
				});
			} catch (error) {
				// A GET changes nothing, so a connection dropped under it (n8n closing an idle one
				// on a loaded machine) is tried again; anything else only when n8n never got it.
				const again = refusedConnection(error) || (method === 'GET' && droppedConnection(error));
				if (!again || Date.now() > deadline) throw callFailed(method, path, error);
				noteTransient(`${method} ${path}: ${networkCode(error)}`);
				await sleep(Math.min(attempt, 5) * 500);
				continue;
			}
			if (response.status === 503 && Date.now() <= deadline) {
				noteTransient(`${method} ${path}: 503 ${(await response.text()).slice(0, 80)}`);
				await sleep(Math.min(attempt, 5) * 500);
				continue;
			}
			// n8n's login rate limit (five a minute per user) answers 429 before it checks anything.
			if (response.status === 429 && path === '/rest/login' && Date.now() <= deadline) {
				noteTransient(`${method} ${path}: 429 ${(await response.text()).slice(0, 80)}`);
				await sleep(5_000);
				continue;
			}
			return await this.unwrap<T>(response, method, path);
		}
	}

	private async unwrap<T>(
		response: Awaited<ReturnType<typeof fetch>>,
		method: string,
		path: string,
	): Promise<T> {
		const auth = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await response.text();
		if (!response.ok) throw new N8nApiError(response.status, method, path, text);
		if (!text) return undefined as T;
		const parsed = JSON.parse(text) as { data?: T };
		return (parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed) as T;
	}

	/** The node and credential types the editor is served (GET /types/*.json). */
	async nodeTypeNames(): Promise<string[]> {
		const types = await this.call<Array<{ name: string }>>('GET', '/types/nodes.json');
		return types.map((t) => t.name);
	}

	async credentialTypeNames(): Promise<string[]> {
		const types = await this.call<Array<{ name: string }>>('GET', '/types/credentials.json');
		return types.map((t) => t.name);
	}

	async nodeType(
		name: string,
	): Promise<Record<string, unknown> & { name: string; version: number | number[] }> {
		const types = await this.call<
			Array<Record<string, unknown> & { name: string; version: number | number[] }>
		>('GET', '/types/nodes.json');
		const type = types.find((t) => t.name === name);
		if (!type) throw new Error(`n8n does not know the node type ${name}`);
		return type;
	}

	async createCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<{ id: string; name: string }> {
		return await this.call('POST', '/rest/credentials', { name, type, data });
	}

	/**
	 * The editor's "Test" button on a saved credential: it loads the credential (secrets come back
	 * redacted) and posts that form data, which n8n completes from the stored secrets.
	 */
	async testCredential(credential: {
		id: string;
		name: string;
		type: string;
	}): Promise<CredentialTestResult> {
		const stored = await this.call<{ data?: Record<string, unknown> }>(
			'GET',
			`/rest/credentials/${credential.id}?includeData=true`,
		);
		return await this.call('POST', '/rest/credentials/test', {
			credentials: {
				id: credential.id,
				name: credential.name,
				type: credential.type,
				data: stored.data ?? {},
			},
		});
	}

	async createWorkflow(workflow: WorkflowJson): Promise<StoredWorkflow> {
		const {
			id: _id,
			active: _active,
			versionId: _versionId,
			meta: _meta,
			tags: _tags,
			pinData,
			...body
		} = workflow;
		return await this.call('POST', '/rest/workflows', {
			...body,
			pinData: pinData ?? {},
			settings: { executionOrder: 'v1', ...(workflow.settings ?? {}) },
		});
	}

	/** Every workflow in the instance (the editor's Overview list). */
	async workflows(): Promise<Array<{ id: string; name: string; active: boolean }>> {
		return await this.call('GET', '/rest/workflows');
	}

	/** Every credential the owner can see (secrets are never returned). */
	async credentials(): Promise<Array<{ id: string; name: string; type: string }>> {
		return await this.call('GET', '/rest/credentials');
	}

	async getWorkflow(id: string): Promise<StoredWorkflow> {
		return await this.call('GET', `/rest/workflows/${id}`);
	}

	/** Saves new nodes into a stored workflow, as the editor's Save does (publish it again to go live). */
	async updateWorkflow(id: string, nodes: WorkflowJson['nodes']): Promise<StoredWorkflow> {
		const stored = await this.getWorkflow(id);
		return await this.call('PATCH', `/rest/workflows/${id}`, {
			name: stored.name,
			nodes,
			connections: stored.connections,
			settings: stored.settings,
			versionId: stored.versionId,
		});
	}

	/**
	 * Puts another workflow's nodes and connections in a stored workflow, as a user who deletes its
	 * nodes and imports a file over it: its id (and so every workflow that chose it) stays.
	 */
	async replaceWorkflow(id: string, workflow: WorkflowJson): Promise<StoredWorkflow> {
		const stored = await this.getWorkflow(id);
		return await this.call('PATCH', `/rest/workflows/${id}`, {
			name: stored.name,
			nodes: workflow.nodes,
			connections: workflow.connections,
			settings: stored.settings,
			versionId: stored.versionId,
		});
	}

	/** Publishes (activates) the workflow's current version: production webhooks go live. */
	async publishWorkflow(id: string): Promise<StoredWorkflow> {
		const { versionId } = await this.getWorkflow(id);
		return await this.call('POST', `/rest/workflows/${id}/activate`, { versionId });
	}

	/**
	 * Waits until n8n serves a production webhook URL. Publishing returns before the webhook is
	 * registered; a CORS preflight answers 204 once it is and 404 before, and runs nothing.
	 */
	async waitForWebhook(url: string, timeoutMs = 20_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const response = await fetch(url, {
				method: 'OPTIONS',
				headers: { origin: this.baseUrl, 'access-control-request-method': 'POST' },
			});
			await response.body?.cancel();
			if (response.status === 204) return;
			if (Date.now() > deadline)
				throw new Error(`n8n did not register the webhook ${url} within ${timeoutMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	async unpublishWorkflow(id: string): Promise<void> {
		await this.call('POST', `/rest/workflows/${id}/deactivate`, {});
	}

	/** "Execute workflow" from the given trigger node; returns the new execution's id. */
	async runManually(workflowId: string, triggerName: string): Promise<string> {
		const result = await this.call<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/rest/workflows/${workflowId}/run`,
			{ triggerToStartFrom: { name: triggerName } },
		);
		if (!result?.executionId)
			throw new Error(`n8n started no execution: ${JSON.stringify(result)}`);
		return String(result.executionId);
	}

	/**
	 * The workflow's newest executions, `limit` of them at most (n8n pages them by 100);
	 * `mode: 'webhook'` keeps only the runs a request started (an inbox's relays, not the Question
	 * Log calls it makes to itself).
	 */
	async executions(
		workflowId: string,
		limit = 100,
		{ mode }: { mode?: string } = {},
	): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const all: ExecutionSummary[] = [];
		let cursor: string | undefined;
		while (all.length < limit) {
			const page = Math.min(100, limit - all.length);
			const after = cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`;
			const list = await this.call<{ results: ExecutionSummary[]; nextCursor?: string | null }>(
				'GET',
				`/rest/executions?filter=${filter}&limit=${page}${after}`,
			);
			all.push(...list.results.filter((e) => mode === undefined || e.mode === mode));
			if (!list.nextCursor || list.results.length < page) break;
			cursor = list.nextCursor;
		}
		return all;
	}

	async execution(id: string): Promise<Execution> {
		const raw = await this.call<ExecutionSummary & { data: string | Execution['data'] }>(
			'GET',
			`/rest/executions/${id}`,
		);
		const data =
			typeof raw.data === 'string' ? (parseFlatted(raw.data) as Execution['data']) : raw.data;
		return { ...raw, id: String(raw.id), data };
	}

	/** Waits until n8n has stored the execution as finished (success, error, crashed, canceled). */
	async waitForExecution(id: string, timeoutMs = 60_000): Promise<Execution> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.execution(id);
			if (FINISHED.has(execution.status)) return execution;
			if (Date.now() > deadline)
				throw new Error(`Execution ${id} still ${execution.status} after ${timeoutMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/** Runs a workflow from its trigger and returns the finished, stored execution. */
	async runAndWait(
		workflowId: string,
		triggerName: string,
		timeoutMs?: number,
	): Promise<Execution> {
		return await this.waitForExecution(await this.runManually(workflowId, triggerName), timeoutMs);
	}

	/**
	 * Waits until the workflow has `count` finished executions (webhook-started ones, say) and
	 * returns them, oldest first.
	 */
	async waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 60_000,
		only: { mode?: string } = {},
	): Promise<Execution[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const listed = (await this.executions(workflowId, Math.max(100, count + 50), only)).filter(
				(e) => FINISHED.has(e.status),
			);
			// n8n's list may name an execution twice while executions change state (queue mode).
			const finished = [...new Map(listed.map((e) => [String(e.id), e])).values()];
			if (finished.length >= count) {
				const sorted = finished.sort((a, b) => Number(a.id) - Number(b.id));
				return await Promise.all(sorted.map((e) => this.execution(String(e.id))));
			}
			if (Date.now() > deadline) {
				throw new Error(
					`Workflow ${workflowId} has ${finished.length} finished executions, expected ${count}`,
				);
			}
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/** The owner's personal project, where data tables and workflows live by default. */
	async personalProjectId(): Promise<string> {
		const project = await this.call<{ id: string }>('GET', '/rest/projects/personal');
		return project.id;
	}

	/** Creates an n8n Data Table (Overview → Data tables in the editor). */
	async createDataTable(
		name: string,
		columns: Array<{ name: string; type: 'string' | 'number' | 'boolean' | 'date' }>,
	): Promise<{ id: string; name: string }> {
		const projectId = await this.personalProjectId();
		return await this.call('POST', `/rest/projects/${projectId}/data-tables`, { name, columns });
	}

	async deleteCredential(id: string): Promise<void> {
		await this.call('DELETE', `/rest/credentials/${id}`);
	}

	async deleteDataTable(tableId: string): Promise<void> {
		const projectId = await this.personalProjectId();
		await this.call('DELETE', `/rest/projects/${projectId}/data-tables/${tableId}`);
	}

	/** Adds rows to a Data Table, as its view's "Add row" does. */
	async insertDataTableRows(tableId: string, rows: Array<Record<string, unknown>>): Promise<void> {
		const projectId = await this.personalProjectId();
		await this.call('POST', `/rest/projects/${projectId}/data-tables/${tableId}/insert`, {
			data: rows,
			returnType: 'id',
		});
	}

	async dataTableRows(tableId: string): Promise<Array<Record<string, unknown>>> {
		const projectId = await this.personalProjectId();
		const page = await this.call<{ data: Array<Record<string, unknown>> }>(
			'GET',
			`/rest/projects/${projectId}/data-tables/${tableId}/rows?take=1000`,
		);
		return page.data;
	}

	/** The Data Tables of every project the owner can see. */
	async dataTables(): Promise<Array<{ id: string; name: string; projectId: string }>> {
		const page = await this.call<{ data: Array<{ id: string; name: string; projectId: string }> }>(
			'GET',
			'/rest/data-tables-global?take=1000',
		);
		return page.data;
	}

	/** What a test file left in the instance: workflows, credentials and Data Tables, by name. */
	async holdings(): Promise<Holdings> {
		const [workflows, credentials, tables] = await Promise.all([
			this.call<Array<{ name: string }>>('GET', '/rest/workflows'),
			this.credentials(),
			this.dataTables(),
		]);
		return {
			workflows: workflows.map((w) => w.name),
			credentials: credentials.map((c) => c.name),
			dataTables: tables.map((t) => t.name),
		};
	}

	/**
	 * Stops every running or waiting execution, deletes every execution, then every workflow,
	 * credential and Data Table: a shared n8n handed to the next test file as it was at start.
	 */
	async clearEverything(): Promise<void> {
		await this.call('POST', '/rest/executions/stopMany', {
			filter: { workflowId: 'all', status: ['new', 'running', 'waiting', 'unknown'] },
		});
		await this.call('POST', '/rest/executions/delete', {
			deleteBefore: new Date(Date.now() + 60_000).toISOString(),
		}).catch((error) => {
			// n8n answers 404 "Execution not found" when there is no workflow at all.
			if (!(error instanceof N8nApiError && error.status === 404)) throw error;
		});
		const workflows = await this.call<
			Array<{ id: string; active?: boolean; isArchived?: boolean }>
		>('GET', '/rest/workflows');
		for (const workflow of workflows) {
			if (workflow.isArchived !== true) {
				await this.call('POST', `/rest/workflows/${workflow.id}/archive`, {}).catch((error) => {
					// "Workflow is already archived."
					if (!(error instanceof N8nApiError && error.status === 400)) throw error;
				});
			}
			await this.deleteWhenUnpublished(workflow.id);
		}
		for (const credential of await this.credentials()) {
			await this.call('DELETE', `/rest/credentials/${credential.id}`);
		}
		for (const table of await this.dataTables()) {
			await this.call('DELETE', `/rest/projects/${table.projectId}/data-tables/${table.id}`);
		}
	}

	/**
	 * Deletes an archived workflow. Archiving a published one unpublishes it in the background, and
	 * until that is done n8n answers 409 "still being unpublished": wait for it, within a bound.
	 */
	private async deleteWhenUnpublished(id: string, timeoutMs = 60_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			try {
				await this.call('DELETE', `/rest/workflows/${id}`);
				return;
			} catch (error) {
				if (!(error instanceof N8nApiError && error.status === 409) || Date.now() > deadline)
					throw error;
				noteTransient(`DELETE /rest/workflows/${id}: 409 still being unpublished`);
				await sleep(500);
			}
		}
	}

	/** The options n8n's editor shows for a parameter with loadOptionsMethod (a dropdown). */
	async loadOptions(request: {
		nodeType: string;
		version: number;
		methodName: string;
		path?: string;
		currentNodeParameters?: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
	}): Promise<Array<{ name: string; value: string | number; description?: string }>> {
		return await this.call('POST', '/rest/dynamic-node-parameters/options', {
			nodeTypeAndVersion: { name: request.nodeType, version: request.version },
			path: request.path ?? request.methodName,
			methodName: request.methodName,
			currentNodeParameters: request.currentNodeParameters ?? {},
			credentials: request.credentials,
		});
	}
}

/** Items a node put on an output in a stored execution (first run by default). */
export function nodeOutput(execution: Execution, nodeName: string, output = 0, run = 0) {
	const task = execution.data.resultData.runData[nodeName]?.[run];
	return (task?.data?.main?.[output] ?? []).map((item) => item.json);
}

/** The error n8n stored for a node, if it failed. */
export function nodeError(execution: Execution, nodeName: string, run = 0) {
	return execution.data.resultData.runData[nodeName]?.[run]?.error;
}
