// Deliver Reply's Assistant: each text no question took, handed to the assistant workflow the user
// chose from a list, so the inbox holds no workflow id and no If of its own for it.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asText } from '../../../shared/values';

export const assistantField: INodeProperties = {
	displayName: 'Assistant',
	name: 'assistant',
	type: 'workflowSelector',
	default: '',
	description:
		'Optional: the published workflow that answers texts (the SMS assistant example, starting with When Executed by Another Workflow). Every verified text that no question took and that asks for no Re-Prompt is handed to it, and its item says handedToAssistant. Empty: no assistant.',
};

/**
 * Whether a delivered item is a text for the assistant: a verified inbound message no question took
 * (nor may have: `unconfirmed`), not one this relay already answered, not a replayed copy, and not
 * one a waiting question asks to be sent again (the inbox re-prompts it).
 */
export function forAssistant(json: IDataObject): boolean {
	return (
		json.event === 'inbound' &&
		json.verified === true &&
		json.resumed === false &&
		json.unconfirmed !== true &&
		json.alreadyAnswered !== true &&
		json.replay !== true &&
		asText(json.reprompt) === ''
	);
}

/** The chosen workflow's id: saved as a resource locator by the editor, or as a plain id. */
function assistantId(ctx: IExecuteFunctions): string {
	const chosen = ctx.getNodeParameter('assistant', 0, '') as unknown;
	return asText(
		chosen && typeof chosen === 'object' ? (chosen as IDataObject).value : chosen,
	).trim();
}

/**
 * Starts the assistant once with every delivered item it takes (as n8n's Execute Workflow node
 * does with Wait For Sub-Workflow Completion off) and marks them `handedToAssistant`. A workflow
 * that cannot be started fails the run: a text would otherwise go unanswered unseen.
 */
export async function handToAssistant(
	ctx: IExecuteFunctions,
	delivered: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const id = assistantId(ctx);
	if (id === '') return delivered;
	const marked = delivered.map((item) =>
		forAssistant(item.json) ? { ...item, json: { ...item.json, handedToAssistant: true } } : item,
	);
	const handed = marked.filter((item) => item.json.handedToAssistant === true);
	if (handed.length === 0) return delivered;
	try {
		await ctx.executeWorkflow(
			{ id },
			handed.map(({ json }) => ({ json })),
			undefined,
			{
				doNotWaitToFinish: true,
				parentExecution: {
					executionId: ctx.getExecutionId(),
					workflowId: ctx.getWorkflow().id!,
					shouldResume: false,
				},
				executionMode: ctx.getMode(),
			},
		);
	} catch (error) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Assistant: the workflow ${id} could not be started${error instanceof Error ? `: ${error.message}` : ''}`,
			{
				description:
					'Choose a published workflow that starts with When Executed by Another Workflow (the SMS assistant example), or empty Assistant to answer texts by keyword.',
			},
		);
	}
	return marked;
}
