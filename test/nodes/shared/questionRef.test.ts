import fc from 'fast-check';

import {
	askingExecution,
	MAX_EXECUTION_ID_LENGTH,
	questionRef,
} from '../../../nodes/shared/questionRef';

const SECRET = 'a-long-random-relay-secret-0123456789';
const NUMBER = '353871234567';
const NODE = 'f1e2d3c4-node';
const asked = (executionId: string, msisdn = NUMBER, nodeId = NODE) => ({
	executionId,
	nodeId,
	msisdn,
});

describe('the Notify ID that ties a reply to the question and the number it was asked of', () => {
	it("fits the provider's 30 characters and names the asking execution, for that number and node only", () => {
		fc.assert(
			fc.property(
				fc.stringMatching(/^[0-9]{1,14}$/),
				fc.stringMatching(/^[1-9][0-9]{7,14}$/),
				(executionId, msisdn) => {
					const ref = questionRef(asked(executionId, msisdn), SECRET)!;
					expect(ref.length).toBeLessThanOrEqual(30);
					expect(askingExecution(ref, { nodeId: NODE, msisdn }, SECRET)).toBe(executionId);
					expect(
						askingExecution(
							ref,
							{ nodeId: NODE, msisdn: msisdn === NUMBER ? '353871234568' : NUMBER },
							SECRET,
						),
					).toBeNull();
					expect(askingExecution(ref, { nodeId: 'another-node', msisdn }, SECRET)).toBeNull();
				},
			),
		);
	});

	it('gives two questions of one run (two nodes) different references', () => {
		expect(questionRef(asked('4211'), SECRET)).not.toBe(
			questionRef(asked('4211', NUMBER, 'second-node'), SECRET),
		);
	});

	it('names nothing when made with another secret, altered, or not ours', () => {
		const ref = questionRef(asked('4211'), SECRET)!;
		const flipped = ref.slice(0, -1) + (ref.endsWith('A') ? 'B' : 'A');
		const at = { nodeId: NODE, msisdn: NUMBER };
		expect(askingExecution(ref, at, 'another-secret')).toBeNull();
		expect(askingExecution(flipped, at, SECRET)).toBeNull();
		expect(askingExecution(ref.replace('4211', '4212'), at, SECRET)).toBeNull();
		for (const other of [
			'order-001',
			'',
			null,
			42,
			'.abc',
			`4211.${'x'.repeat(15)}`,
			`4211.${'x'.repeat(16)}`,
		]) {
			expect(askingExecution(other, at, SECRET)).toBeNull();
		}
	});

	it('makes no reference it could not check: an id too long, or no secret', () => {
		expect(questionRef(asked('1'.repeat(MAX_EXECUTION_ID_LENGTH + 1)), SECRET)).toBeUndefined();
		expect(questionRef(asked('4211'), '')).toBeUndefined();
		expect(
			askingExecution(questionRef(asked('4211'), SECRET), { nodeId: NODE, msisdn: NUMBER }, ''),
		).toBeNull();
	});
});
