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

const NOT_VERIFIED =
	'the text was not verified by the Phonovation Trigger: the assistant answers verified texts only';

/**
 * Whether a delivered item is a text for the assistant: an inbound message no question took (nor
 * may have: `unconfirmed`), not one this relay already answered, not a replayed copy, not an answer
 * whose code two questions share (`ambiguous`: meant for a question), and not one a waiting question
 * asks to be sent again (the inbox re-prompts it).
 */
export function forAssistant(json: IDataObject): boolean {
	return (
		json.event === 'inbound' &&
		json.resumed === false &&
		json.unconfirmed !== true &&
		json.alreadyAnswered !== true &&
		json.replay !== true &&
		json.ambiguous !== true &&
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

const withOutcome = (item: INodeExecutionData, outcome: IDataObject): INodeExecutionData => ({
	...item,
	json: { ...item.json, ...outcome },
});

/**
 * Starts the assistant once with every verified text for it (as n8n's Execute Workflow node does
 * with Wait For Sub-Workflow Completion off) and marks them `handedToAssistant: true`. A text for
 * the assistant that was not handed says `handedToAssistant: false` and `assistantError`, so the
 * inbox gives it no keyword answer either. A workflow that cannot be found or started fails the
 * run (under Continue On Fail, its texts say so instead); one that starts and then fails shows in
 * its own executions.
 */
export async function handToAssistant(
	ctx: IExecuteFunctions,
	delivered: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const id = assistantId(ctx);
	if (id === '') return delivered;
	const handing = (item: INodeExecutionData) =>
		forAssistant(item.json) && item.json.verified === true;
	const handed = delivered.filter(handing);
	const marked = (started: IDataObject) =>
		delivered.map((item) =>
			handing(item)
				? withOutcome(item, started)
				: forAssistant(item.json)
					? withOutcome(item, { handedToAssistant: false, assistantError: NOT_VERIFIED })
					: item,
		);
	if (handed.length === 0) return marked({});
	try {
		await ctx.executeWorkflow(
			{ id },
			handed.map(({ json }) => ({ json: { ...json, handedToAssistant: true } })),
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
		const message = `Assistant: the workflow ${id} could not be started${error instanceof Error ? `: ${error.message}` : ''}`;
		if (ctx.continueOnFail()) return marked({ handedToAssistant: false, assistantError: message });
		throw new NodeOperationError(ctx.getNode(), message, {
			description:
				'Choose a published workflow that starts with When Executed by Another Workflow (the SMS assistant example), or empty Assistant to answer texts by keyword.',
		});
	}
	return marked({ handedToAssistant: true });
}
