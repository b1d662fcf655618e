import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialType,
	IExecuteContextData,
	ILoadOptionsFunctions,
	INode,
	INodeListSearchResult,
	INodePropertyOptions,
	INodeExecutionData,
	INodeType,
	IRun,
	ITaskData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { InMemoryCredentialsHelper } from './credentials-helper';
import { NodeTypeRegistry } from './node-types';

export interface EngineOptions {
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes: ICredentialType[];
	/** The workflow's time zone setting; see DEFAULT_TEST_TIMEZONE. */
	timezone?: string;
}

/**
 * Set explicitly rather than left to n8n's fallback (America/New_York), so a node that ignored
 * the workflow's zone, or hard-coded n8n's default, would be caught. The provider's home zone,
 * with daylight saving time.
 */
export const DEFAULT_TEST_TIMEZONE = 'Europe/Dublin';

/** How an execution is run: as a Retry of an earlier one, and with a way to stop it. */
export interface ExecutionOptions {
	/** The node contexts an earlier execution saved (`run.data.executionData.contextData`). */
	contextData?: IExecuteContextData;
	/** Its id (a Retry of an execution is a new execution with a new id). */
	executionId?: string;
	/** How the execution was started; `retry` for a Retry from the executions list. */
	mode?: WorkflowExecuteMode;
	/** Called once the execution runs, with what the Stop button does. */
	onStarted?: (stop: () => void) => void;
}

export interface NodeRunResult {
	/** Items on the node's first output, as the next node would receive them. */
	items: INodeExecutionData[];
	/** All outputs of the node's first run. */
	outputs: INodeExecutionData[][];
	/** The node's error when the execution failed there. */
	error?: ITaskData['error'];
	run: IRun;
}

/**
 * A workflow another one runs by id (Execute Workflow, `this.executeWorkflow`): its input items in,
 * the items of its last node out, as n8n hands them back.
 */
export type SubWorkflow = (items: INodeExecutionData[]) => Promise<INodeExecutionData[]>;

/** Builds the `additionalData` n8n's host hands to WorkflowExecute, with our credentials helper. */
export function additionalDataFor(
	credentialsHelper: InMemoryCredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
	executionId = 'test-execution',
	subWorkflows: Map<string, SubWorkflow> = new Map(),
	base = 'http://127.0.0.1:5678',
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		currentNodeParameters: undefined,
		evalLlmMockHandler: undefined,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: base,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		variables: {},
		userId: 'test-user',
		// What n8n's host does for a workflow run by id: unknown ids fail as "does not exist".
		executeWorkflow: async (
			workflowInfo: { id?: string },
			_additionalData: unknown,
			options: { inputData?: INodeExecutionData[] },
		) => {
			const run = workflowInfo.id === undefined ? undefined : subWorkflows.get(workflowInfo.id);
			if (!run) throw new Error('Workflow does not exist.');
			return { executionId: `sub-${workflowInfo.id}`, data: [await run(options.inputData ?? [])] };
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners are not available in tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/**
 * Runs nodes in the real n8n-core engine: a Workflow built from node JSON, executed by
 * WorkflowExecute with lifecycle hooks, the real execution contexts and the real
 * httpRequestWithAuthentication (token refresh on 401 included).
 */
let engines = 0;

export class Engine {
	readonly nodeTypes: NodeTypeRegistry;

	readonly credentials: InMemoryCredentialsHelper;

	/** Where this n8n is reached: the base of its webhook and resume URLs. */
	instanceBaseUrl = 'http://127.0.0.1:5678';

	/** Workflows a node may run by id, as n8n's database would hold them. */
	readonly subWorkflows = new Map<string, SubWorkflow>();

	/**
	 * The id of the workflow this engine runs, as n8n's database would give it. What a node keeps
	 * per workflow in memory (the remembered pace) is kept under it: a new id is a new workflow.
	 */
	workflowId = `test-workflow-${++engines}`;

	/** The time zone of every workflow this engine builds (Settings → Timezone in the editor). */
	timezone: string;

	constructor(options: EngineOptions) {
		this.nodeTypes = new NodeTypeRegistry(options.nodeTypes);
		this.credentials = new InMemoryCredentialsHelper(options.credentialTypes);
		this.timezone = options.timezone ?? DEFAULT_TEST_TIMEZONE;
	}

	workflow(nodes: INode[], connections: IWorkflowBase['connections'] = {}): Workflow {
		return new Workflow({
			id: this.workflowId,
			name: 'test',
			nodes,
			connections,
			nodeTypes: this.nodeTypes,
			active: false,
			settings: { executionOrder: 'v1', timezone: this.timezone },
		});
	}

	/**
	 * Runs a whole workflow: the start node gets the given items as a trigger would hand them
	 * over, and WorkflowExecute follows the connections.
	 */
	async runWorkflow(
		nodes: INode[],
		connections: IWorkflowBase['connections'],
		startNode: INode,
		items: INodeExecutionData[],
		mode: WorkflowExecuteMode = 'manual',
		execution: ExecutionOptions = {},
	): Promise<IRun> {
		const workflow = this.workflow(nodes, connections);
		const workflowData = {
			id: this.workflowId,
			name: 'test',
			nodes,
			connections,
			active: false,
			settings: { executionOrder: 'v1', timezone: this.timezone },
			createdAt: new Date(),
			updatedAt: new Date(),
			isArchived: false,
			activeVersionId: null,
		} as unknown as IWorkflowBase;
		const executionId = execution.executionId ?? 'test-execution';
		const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
		const finished = new Promise<IRun>((resolve) =>
			hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)),
		);
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{
						node: startNode,
						data: { main: [items.length ? items : [{ json: {} }]] },
						source: null,
					},
				],
				// A Retry of an execution hands the saved node contexts back (ExecutionService.retry).
				...(execution.contextData ? { contextData: structuredClone(execution.contextData) } : {}),
			},
		});
		const execute = new WorkflowExecute(
			additionalDataFor(
				this.credentials,
				hooks,
				executionId,
				this.subWorkflows,
				this.instanceBaseUrl,
			),
			mode,
			runExecutionData,
		);
		const running = execute.processRunExecutionData(workflow);
		// The Stop button: n8n cancels the running promise, which aborts the execution's signal.
		execution.onStarted?.(() => running.cancel());
		await running.catch(() => undefined);
		return await finished;
	}

	/** Runs one node on the given input items, as if a trigger had handed them over. */
	async runNode(
		node: INode,
		items: INodeExecutionData[],
		mode: WorkflowExecuteMode = 'manual',
		execution: ExecutionOptions = {},
	): Promise<NodeRunResult> {
		const run = await this.runWorkflow([node], {}, node, items, mode, execution);
		const task = run.data.resultData.runData[node.name]?.[0];
		const outputs = (task?.data?.main ?? []).map((output) => output ?? []);
		return { items: outputs[0] ?? [], outputs, error: task?.error, run };
	}

	/** Calls a node's loadOptions method through n8n-core's real LoadOptionsContext, as the editor does. */
	async loadOptions(node: INode, method: string): Promise<INodePropertyOptions[]> {
		const { context, methods } = this.editorContext(node);
		const fn = methods?.loadOptions?.[method];
		if (!fn) throw new Error(`${node.type} has no loadOptions method ${method}`);
		return await fn.call(context);
	}

	/** Calls a node's listSearch method (a resource locator's list) as the editor does when it opens. */
	async listSearch(node: INode, method: string, filter?: string): Promise<INodeListSearchResult> {
		const { context, methods } = this.editorContext(node);
		const fn = methods?.listSearch?.[method];
		if (!fn) throw new Error(`${node.type} has no listSearch method ${method}`);
		return await fn.call(context, filter);
	}

	/** What the editor's option and list requests run in: the node alone, with the credentials. */
	private editorContext(node: INode) {
		// The editor sends the node's parameters as they stand with each request.
		const additionalData = {
			...additionalDataFor(this.credentials),
			currentNodeParameters: node.parameters,
		};
		const context = new LoadOptionsContext(
			this.workflow([node]),
			node,
			additionalData,
			'parameters',
		) as ILoadOptionsFunctions;
		const type = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		return { context, methods: type.methods };
	}
}
