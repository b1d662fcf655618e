// Send and Wait for Delivery's three outputs, and one item put on one of them.
import type { INodeExecutionData } from 'n8n-workflow';

/**
 * The node's outputs, in this order: n8n resumes a run whose Limit Wait Time passed by passing
 * the paused item out of the first output, so No Receipt must be it.
 */
export const outputNames = ['No Receipt', 'Delivered', 'Failed'] as const;
export const NO_RECEIPT = 0;
export const DELIVERED = 1;
export const FAILED = 2;

/** One item on one of the three outputs. */
export function onOutput(output: number, item: INodeExecutionData): INodeExecutionData[][] {
	return outputNames.map((_, index) => (index === output ? [item] : []));
}
