// Every operation by resource, the one a run selects, and the error item of a run-wide failure.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { heldPlaceholders, placeholderMessage } from './placeholders';
import * as campaign from './resources/campaign';
import * as conversation from './resources/conversation';
import * as legacyMessage from './resources/legacyMessage';
import * as sender from './resources/sender';
import * as service from './resources/service';

/**
 * Every operation: all input items in, output items out (pairedItem set); one with outputs of its
 * own (Send and Wait for Delivery) gives each output's items.
 */
export interface Operation {
	execute(
		this: IExecuteFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[] | INodeExecutionData[][]>;
	/** The outputs of an operation that has more than one; errors go out of the last. */
	outputNames?: readonly string[];
	/** Its own fields (shown for it alone), where an example's placeholders are looked for. */
	description?: readonly INodeProperties[];
}

const RESOURCES = new Map<string, Map<string, Operation>>(
	Object.entries({ campaign, conversation, legacyMessage, sender, service }).map(
		([name, resource]) => [name, new Map(Object.entries(resource.operations))],
	),
);

/**
 * An example's placeholder still in the node (a Sender, a Question Log): an error before anything is
 * sent. Called once the operation's outputs are known, so that under Continue On Fail its error items
 * leave by the error output.
 */
export function refusePlaceholders(this: IExecuteFunctions, operation: Operation): void {
	const node = this.getNode();
	const held = heldPlaceholders(node.parameters, operation.description ?? [], node.typeVersion);
	if (held.length > 0)
		throw new NodeOperationError(this.getNode(), placeholderMessage(held), {
			description: 'Nothing was sent.',
		});
}

/** The selected operation; one it does not know is an error before anything is sent. */
export function selectedOperation(this: IExecuteFunctions): Operation {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0, '') as string;
	const run = RESOURCES.get(resource)?.get(operation);
	if (!run) {
		throw new NodeOperationError(
			this.getNode(),
			`Unsupported operation "${operation}" for resource "${resource}"`,
			{
				description: 'Nothing was sent.',
			},
		);
	}
	return run;
}

/**
 * An input item that an error of the whole run stopped, under Continue On Fail (n8n would pass the
 * input items on as if they had succeeded): its message, and the recipients already accepted if any.
 */
export function errorItemFor(error: unknown, itemIndex: number): INodeExecutionData {
	const accepted = (error as Partial<NodeOperationError> | null | undefined)?.context
		?.acceptedRecipients;
	const json: IDataObject = {
		error: error instanceof Error ? error.message : String(error ?? 'Unknown error'),
	};
	if (Array.isArray(accepted)) json.details = { acceptedRecipients: accepted as string[] };
	return { json, pairedItem: { item: itemIndex } };
}
