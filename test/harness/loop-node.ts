import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * A test-only loop: its first output leads back into the loop until it has run `times` times,
 * then its items leave by the second. Like n8n's If node on `$runIndex`, without nodes-base.
 */
export class LoopGate implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loop Gate',
		name: 'loopGate',
		group: ['transform'],
		version: 1,
		description: 'Test-only node',
		defaults: { name: 'Loop Gate' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		properties: [{ displayName: 'Times', name: 'times', type: 'number', default: 2 }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const again =
			this.getWorkflowDataProxy(0).$runIndex < (this.getNodeParameter('times', 0) as number) - 1;
		return again ? [items, []] : [[], items];
	}
}
