import type { IConnections, INode, INodeExecutionData, IRun } from 'n8n-workflow';

import type { Engine } from '../../harness/engine';

export interface WorkflowRun {
	run: IRun;
	/** Items the named node put on its first output (last run). */
	outputOf(nodeName: string): INodeExecutionData[];
}

/**
 * Runs a whole workflow (nodes and connections) in the engine's real WorkflowExecute, with the
 * given items handed to the start node as a trigger would. Throws when the execution failed.
 */
export async function runWorkflow(
	engine: Engine,
	nodes: INode[],
	connections: IConnections,
	startNode: string,
	items: INodeExecutionData[],
): Promise<WorkflowRun> {
	const start = nodes.find((node) => node.name === startNode);
	if (!start) throw new Error(`No node named ${startNode}`);
	const run = await engine.runWorkflow(nodes, connections, start, items);
	const error = run.data.resultData.error;
	if (error) {
		const where = run.data.resultData.lastNodeExecuted ?? 'the workflow';
		throw new Error(
			`${where} failed: ${error.message}${error.description ? ` (${error.description})` : ''}`,
		);
	}
	return {
		run,
		outputOf: (nodeName) => {
			const tasks = run.data.resultData.runData[nodeName] ?? [];
			return tasks[tasks.length - 1]?.data?.main?.[0] ?? [];
		},
	};
}
