import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from './eachItem';
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
	const items = this.getInputData();
	try {
		return [await run.execute.call(this, items)];
	} catch (error) {
		if (!this.continueOnFail()) throw asNodeError(this, error);
		// n8n would pass the input items through as if they had succeeded: each gets the error instead.
		return [items.map((_, itemIndex) => errorItemFor(error as Error, itemIndex))];
	}
}

/** An input item that the whole run's error stopped: its message, and the recipients already accepted if any. */
function errorItemFor(error: Error, itemIndex: number): INodeExecutionData {
	const accepted = (error as Partial<NodeOperationError>).context?.acceptedRecipients;
	const json: IDataObject = { error: error.message };
	if (Array.isArray(accepted)) json.details = { acceptedRecipients: accepted as string[] };
	return { json, pairedItem: { item: itemIndex } };
}
