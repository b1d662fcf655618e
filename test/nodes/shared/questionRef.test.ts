import fc from 'fast-check';

import { askingExecution, MAX_EXECUTION_ID_LENGTH, questionRef } from '../../../nodes/shared/questionRef';

const SECRET = 'a-long-random-relay-secret-0123456789';
const NUMBER = '353871234567';

describe('the Notify ID that ties a reply to the question and the number it was asked of', () => {
	it('fits the provider\'s 30 characters and names the asking execution, for that number only', () => {
		fc.assert(
			fc.property(fc.stringMatching(/^[0-9]{1,13}$/), fc.stringMatching(/^[1-9][0-9]{7,14}$/), (executionId, msisdn) => {
				const ref = questionRef(executionId, msisdn, SECRET)!;
				expect(ref.length).toBeLessThanOrEqual(30);
				expect(askingExecution(ref, msisdn, SECRET)).toBe(executionId);
				expect(askingExecution(ref, msisdn === NUMBER ? '353871234568' : NUMBER, SECRET)).toBeNull();
			}),
		);
	});

	it('names nothing when made with another secret, altered, or not ours', () => {
		const ref = questionRef('4211', NUMBER, SECRET)!;
		const flipped = ref.slice(0, -1) + (ref.endsWith('A') ? 'B' : 'A');
		expect(askingExecution(ref, NUMBER, 'another-secret')).toBeNull();
		expect(askingExecution(flipped, NUMBER, SECRET)).toBeNull();
		expect(askingExecution(ref.replace('4211', '4212'), NUMBER, SECRET)).toBeNull();
		for (const other of ['order-001', '', null, 42, '.abc', `4211.${'x'.repeat(15)}`]) expect(askingExecution(other, NUMBER, SECRET)).toBeNull();
	});

	it('makes no reference it could not check: an id too long, or no secret', () => {
		expect(questionRef('1'.repeat(MAX_EXECUTION_ID_LENGTH + 1), NUMBER, SECRET)).toBeUndefined();
		expect(questionRef('4211', NUMBER, '')).toBeUndefined();
		expect(askingExecution(questionRef('4211', NUMBER, SECRET), NUMBER, '')).toBeNull();
	});
});
