// Refuses an execution Retry that finds no record of this node's earlier run: it could text twice.
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { nodeMemory, remembered } from './runMemory';

/**
 * A Retry of an execution (Executions → Retry) that finds no record of this node's earlier run.
 * n8n 2.41 keeps the node's record when an execution fails, but not when it was stopped (the
 * saved execution is written back as it was before the node ran) or when n8n crashed while the
 * node was sending. Posting then could text everyone a second time, so nothing is posted: a
 * workflow started anew sends as usual. `started`: this node's record for this run existed.
 */
export function refuseBlindRetry(ctx: IExecuteFunctions, started: boolean, runIndex: number): void {
	const memory = nodeMemory(ctx);
	// Once refused, refused on every later attempt too: Retry On Fail would otherwise find the
	// record this attempt began and send.
	const refused = remembered<boolean>(memory, 'blindRetryRefused');
	/** The execution each run of this node last ran in. */
	const ranIn = remembered<string>(memory, 'executionOfRun');
	const executionId = ctx.getExecutionId();
	// A loop's next run inside this very execution continues what it recorded: not blind.
	const continuing = runIndex > 0 && ranIn[runIndex - 1] === executionId;
	if (
		!refused[runIndex] &&
		(started || ranIn[runIndex] !== undefined || continuing || ctx.getMode() !== 'retry')
	) {
		ranIn[runIndex] = executionId;
		return;
	}
	refused[runIndex] = true;
	// n8n marks the node a crash stopped at as executed, with an empty run.
	const crashedHere = ctx.getWorkflowDataProxy(0).$(ctx.getNode().name).isExecuted === true;
	const why = crashedHere
		? 'the execution it retries crashed while this node was running, and n8n kept no record of what it had sent'
		: 'this node has no record of this run in the execution it retries: it never ran there (an earlier node failed), or it was stopped or crashed while it ran and n8n kept no record of what it sent';
	throw new NodeOperationError(
		ctx.getNode(),
		`Nothing was sent: this is a Retry of an execution, and ${why}`,
		{
			description:
				"A paid message must never be posted twice, so this node does not guess. Check Phonovation's report for what was sent. To send what is missing, start the workflow again instead of retrying this execution, and mind that this runs every step again: other nodes and earlier runs of a loop may send again too.",
		},
	);
}
