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
});
