// What the node remembers of its runs, in one place: n8n's node context keeps it across Retry On
// Fail and saves it with a failed execution, so a Retry of the execution finds it too. Every key,
// its shape and the one module that writes it are here; nothing else reads the node context.
import type { IContextObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * The keys as saved in executions (renaming one loses what earlier executions recorded), each
 * with the module that writes it. Each holds a record per run of the node (`runIndex`), or per
 * item within one.
 */
export const RUN_MEMORY = {
	/** retriedBlind.ts: a run refused as a blind Retry stays refused on every later attempt. */
	blindRetryRefused: 'phonovationBlindRetry',
	/** retriedBlind.ts: the execution each run of the node last ran in. */
	executionOfRun: 'phonovationRuns',
	/** campaign/pipeline/ledger.ts: each run's posted batches and who they texted. */
	campaignBatches: 'phonovationBatches',
	/** campaign/pipeline/ledger.ts: each run's facts (its time, the sender list) a retry reuses. */
	campaignFacts: 'phonovationFacts',
	/** legacyMessage/sentLedger.ts: each run's legacy sends, by item and number. */
	legacySends: 'phonovationLegacySends',
	/** conversation/ask/ask.ts: the question each run texted, so a retry asks no second time. */
	questions: 'phonovationQuestions',
	/** conversation/assistant/reply.ts: each run's reply plans, so a retry sends the same text. */
	replyPlans: 'phonovationReplyPlans',
	/** conversation/assistant/messageLog.ts: the log row each run and item wrote, per kind. */
	burstLogged: 'phonovationBurstLogged',
	replyLogged: 'phonovationReplyLogged',
	optInLogged: 'phonovationOptInLogged',
	handoverLogged: 'phonovationHandoverLogged',
} as const;

export type RunMemoryKey = keyof typeof RUN_MEMORY;

/** The node's context, where every run record lives (n8n's `getContext('node')`). */
export const nodeMemory = (ctx: Pick<IExecuteFunctions, 'getContext'>): IContextObject =>
	ctx.getContext('node');

/** What `key` holds, by run (or item), created empty on first use. */
export function remembered<T>(memory: IContextObject, key: RunMemoryKey): Record<string, T> {
	return (memory[RUN_MEMORY[key]] ??= {}) as Record<string, T>;
}

/** Whether `key` holds a record for this run, without creating one. */
export function rememberedFor(memory: IContextObject, key: RunMemoryKey, run: number): boolean {
	const records = memory[RUN_MEMORY[key]] as Record<string, unknown> | undefined;
	return records?.[run] !== undefined;
}
