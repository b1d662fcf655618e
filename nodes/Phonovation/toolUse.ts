// How n8n runs this node: on the canvas, as an AI Agent's tool, or as the agent's human review.
// One reading of the node type for every operation that refuses or changes as a tool.
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** n8n runs a node an AI Agent uses as a tool under the node's type plus `Tool`. */
export const isAiToolType = (nodeType: string): boolean => nodeType.endsWith('Tool');

/** The AI Agent's human review (n8n's HITL tool): the node's type plus `HitlTool`, a tool too. */
export const isHumanReviewType = (nodeType: string): boolean => nodeType.endsWith('HitlTool');

export const runsAsAiTool = (ctx: Pick<IExecuteFunctions, 'getNode'>): boolean =>
	isAiToolType(ctx.getNode().type);

export const runsAsHumanReview = (ctx: Pick<IExecuteFunctions, 'getNode'>): boolean =>
	isHumanReviewType(ctx.getNode().type);

/** Stops an operation no AI Agent may use, saying why, before it reads or sends anything. */
export function refuseAsAiTool(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	operation: string,
	why: string,
): void {
	if (runsAsAiTool(ctx))
		throw new NodeOperationError(
			ctx.getNode(),
			`${operation} cannot be used as an AI tool: ${why}`,
		);
}
