import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import type { IContextObject } from 'n8n-workflow';

import { RUN_MEMORY, remembered, rememberedFor } from '../../../nodes/Phonovation/runMemory';
import { sourcesUnder } from '../../harness/sources';

const ROOT = join(__dirname, '../../..');

describe('runMemory: the one module that keeps what a run did for its retries', () => {
	it('keeps every record under the key earlier versions saved it under, so a Retry of their executions still finds it', () => {
		expect(Object.values(RUN_MEMORY).sort()).toEqual([
			'phonovationBatches',
			'phonovationBlindRetry',
			'phonovationBurstLogged',
			'phonovationFacts',
			'phonovationHandoverLogged',
			'phonovationLegacySends',
			'phonovationOptInLogged',
			'phonovationQuestions',
			'phonovationReplyLogged',
			'phonovationReplyPlans',
			'phonovationRuns',
		]);
	});

	it('is the only module of nodes/ that reads the node context or names one of its keys', () => {
		const saved = new Set<string>(Object.values(RUN_MEMORY));
		const offenders = sourcesUnder(join(ROOT, 'nodes'))
			.filter((file) => !file.endsWith(join('Phonovation', 'runMemory.ts')))
			.filter((file) => {
				const source = readFileSync(file, 'utf8');
				const names = source.match(/phonovation[A-Z][A-Za-z]*/g) ?? [];
				return source.includes('getContext(') || names.some((name) => saved.has(name));
			})
			.map((file) => relative(ROOT, file));
		expect(offenders).toEqual([]);
	});

	it('gives a writer the same record on every call, and asking whether a run has one creates none', () => {
		const memory: IContextObject = {};
		expect(rememberedFor(memory, 'replyPlans', 0)).toBe(false);
		expect(memory).toEqual({});
		const plans = remembered<string>(memory, 'replyPlans');
		plans[0] = 'the plan';
		expect(remembered<string>(memory, 'replyPlans')).toBe(plans);
		expect(rememberedFor(memory, 'replyPlans', 0)).toBe(true);
		expect(rememberedFor(memory, 'replyPlans', 1)).toBe(false);
		expect(memory).toEqual({ phonovationReplyPlans: { 0: 'the plan' } });
	});

	it('lets each key be written by its one module: the key is named only there', () => {
		const writers: Record<string, string[]> = {
			blindRetryRefused: ['nodes/Phonovation/retriedBlind.ts'],
			executionOfRun: ['nodes/Phonovation/retriedBlind.ts'],
			campaignBatches: ['nodes/Phonovation/resources/campaign/pipeline/ledger.ts'],
			campaignFacts: ['nodes/Phonovation/resources/campaign/pipeline/ledger.ts'],
			legacySends: ['nodes/Phonovation/resources/legacyMessage/sentLedger.ts'],
			questions: ['nodes/Phonovation/resources/conversation/ask/ask.ts'],
			replyPlans: ['nodes/Phonovation/resources/conversation/assistant/reply.ts'],
			// The log's rows, written by messageLog.ts's logOnce for the operation that names the kind.
			burstLogged: ['nodes/Phonovation/resources/conversation/assistant/collectBurst.ts'],
			replyLogged: ['nodes/Phonovation/resources/conversation/assistant/reply.ts'],
			optInLogged: ['nodes/Phonovation/resources/conversation/honourOptIn.ts'],
			handoverLogged: [
				'nodes/Phonovation/resources/conversation/assistant/collectBurst.ts',
				'nodes/Phonovation/resources/conversation/assistant/handOver.ts',
			],
		};
		expect(Object.keys(writers).sort()).toEqual(Object.keys(RUN_MEMORY).sort());
		const named: Record<string, string[]> = {};
		for (const file of sourcesUnder(join(ROOT, 'nodes'))) {
			const source = readFileSync(file, 'utf8');
			for (const [, key] of source.matchAll(
				/(?<!function )(?:remembered(?:<[^(]*?>)?|rememberedFor|logOnce)\([^;]*?'([A-Za-z]+)'/g,
			))
				(named[key] ??= []).push(relative(ROOT, file));
		}
		expect(
			Object.fromEntries(Object.entries(named).map(([k, f]) => [k, [...new Set(f)].sort()])),
		).toEqual(writers);
	});
});
