import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as campaign from './resources/campaign';
import * as conversation from './resources/conversation';
import * as legacyMessage from './resources/legacyMessage';
import * as sender from './resources/sender';
import * as service from './resources/service';

/** Every operation: all input items in, output items out (pairedItem set). */
export interface Operation {
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

const RESOURCES = new Map<string, Map<string, Operation>>(
	Object.entries({ campaign, conversation, legacyMessage, sender, service }).map(([name, resource]) => [
		name,
		new Map(Object.entries(resource.operations)),
	]),
);

/** Runs the selected operation; one it does not know is an error before anything is sent. */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0, '') as string;
	const run = RESOURCES.get(resource)?.get(operation);
	if (!run) {
		throw new NodeOperationError(this.getNode(), `Unsupported operation "${operation}" for resource "${resource}"`, {
			description: 'Nothing was sent.',
		});
	}
	return [await run.execute.call(this, this.getInputData())];
}
