// One request per input item: each run in turn, a failure its error item under Continue On Fail.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Runs `run` for every item in turn (operations whose requests are one per item). With Continue On
 * Fail, a failed item becomes an error item on its own; otherwise the first failure stops the node.
 */
export async function eachItem(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	run: (itemIndex: number) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			out.push(...(await run(itemIndex)));
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx, error, itemIndex);
			out.push({
				json: { error: error instanceof Error ? error.message : String(error ?? 'Unknown error') },
				pairedItem: { item: itemIndex },
			});
		}
	}
	return out;
}

/** An error as n8n shows it: ours as they are, anything else wrapped. */
export function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	return error instanceof NodeApiError || error instanceof NodeOperationError
		? error
		: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}
