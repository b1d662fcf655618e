import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { deepCopy, NodeConnectionTypes } from 'n8n-workflow';

/**
 * The tool variant n8n's host derives from a node with `usableAsTool` (n8n
 * `packages/cli/src/tool-generation`, `convertNodeToAiTool`, not shipped in n8n-core): the same
 * node with `Tool` appended to its name, no main input, one `ai_tool` output and the Tool
 * Description parameters. Everything after that (schema, description, invocation) is n8n-core's.
 */
export function asAiTool(nodeType: INodeType): INodeType {
	if (!nodeType.description.usableAsTool) {
		throw new Error(
			`n8n offers no tool variant of ${nodeType.description.name}: usableAsTool is not set`,
		);
	}
	const description = deepCopy(nodeType.description) as INodeTypeDescription;
	description.name += 'Tool';
	description.displayName += ' Tool';
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	delete description.usableAsTool;
	const descriptionType: INodeProperties = {
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Set Automatically', value: 'auto' },
			{ name: 'Set Manually', value: 'manual' },
		],
		default: 'auto',
	};
	const toolDescription: INodeProperties = {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: description.description,
		required: true,
		displayOptions: { show: { descriptionType: ['manual'] } },
	};
	description.properties = [descriptionType, toolDescription, ...description.properties];
	return Object.create(nodeType, { description: { value: description } }) as INodeType;
}

export interface ToolCall {
	name: string;
	description: string;
	/** The argument names the model is asked for ($fromAI keys). */
	arguments: string[];
	/** What the tool answered (a JSON string), or the error message it threw. */
	answer?: string;
	error?: string;
}

/**
 * Stands where an AI Agent would: asks n8n-core for the tools connected to its `ai_tool` input
 * (getInputConnectionData → createNodeAsTool) and calls the first one with the input item's JSON
 * as the model's arguments.
 */
export class AgentProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent Probe',
		name: 'agentProbe',
		group: ['transform'],
		version: 1,
		description: 'Test-only node',
		defaults: { name: 'Agent Probe' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, required: true }],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
			name: string;
			description: string;
			schema: { shape: Record<string, unknown> };
			invoke(args: unknown): Promise<string>;
		}>;
		const [tool] = tools;
		const call: ToolCall = {
			name: tool.name,
			description: tool.description,
			arguments: Object.keys(tool.schema.shape),
		};
		try {
			call.answer = await tool.invoke(this.getInputData()[0].json);
		} catch (error) {
			call.error = (error as Error).message;
		}
		return [[{ json: { ...call } }]];
	}
}
