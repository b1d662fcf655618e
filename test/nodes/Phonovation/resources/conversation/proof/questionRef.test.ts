import fc from 'fast-check';

import {
	fitsQuestionRef,
	questionOf,
	questionRef,
	VARIANTS,
} from '../../../../../../nodes/Phonovation/resources/conversation/proof/questionRef';

const SECRET = 'a-long-random-relay-secret-0123456789';
const NUMBER = '353871234567';
const NODE = 'f1e2d3c4-node';
const asked = (executionId: string, msisdn = NUMBER, nodeId = NODE, ask = 0) => ({
	executionId,
	nodeId,
	msisdn,
	ask,
});

describe('the Notify ID that ties a reply to the question and the number it was asked of', () => {
	it("fits the provider's 30 characters and names the asking execution and run, for that number and node only", () => {
		fc.assert(
			fc.property(
				fc.stringMatching(/^[0-9]{1,12}$/),
				fc.stringMatching(/^[1-9][0-9]{7,14}$/),
				fc.nat(35),
				(executionId, msisdn, ask) => {
					const ref = questionRef(asked(executionId, msisdn, NODE, ask), SECRET)!;
					expect(ref.length).toBeLessThanOrEqual(30);
					expect(questionOf(ref, { nodeId: NODE, msisdn }, SECRET)).toEqual({ executionId, ask });
					expect(
						questionOf(
							ref,
							{ nodeId: NODE, msisdn: msisdn === NUMBER ? '353871234568' : NUMBER },
							SECRET,
						),
					).toBeNull();
					expect(questionOf(ref, { nodeId: 'another-node', msisdn }, SECRET)).toBeNull();
				},
			),
		);
	});

	it('gives every question its own reference: two nodes of one run, and one node asking again in a loop', () => {
		const refs = [
			questionRef(asked('4211'), SECRET),
			questionRef(asked('4211', NUMBER, 'second-node'), SECRET),
			questionRef(asked('4211', NUMBER, NODE, 1), SECRET),
			questionRef(asked('4211', '353871234568'), SECRET),
		];
		expect(new Set(refs).size).toBe(4);
	});

	it('names nothing when made with another secret, altered, or not ours', () => {
		const ref = questionRef(asked('4211'), SECRET)!;
		const flipped = ref.slice(0, -1) + (ref.endsWith('A') ? 'B' : 'A');
		const at = { nodeId: NODE, msisdn: NUMBER };
		expect(questionOf(ref, at, 'another-secret')).toBeNull();
		expect(questionOf(flipped, at, SECRET)).toBeNull();
		expect(questionOf(ref.replace('4211', '4212'), at, SECRET)).toBeNull();
		expect(questionOf(ref.replace('.0.', '.1.'), at, SECRET)).toBeNull();
		// One question, one reference: the same run written with a leading zero names nothing.
		expect(questionOf(ref.replace('.0.', '.00.'), at, SECRET)).toBeNull();
		const second = questionRef(asked('4211', NUMBER, NODE, 1), SECRET)!;
		expect(questionOf(second, at, SECRET)).toEqual({ executionId: '4211', ask: 1 });
		expect(questionOf(second.replace('.1.', '.01.'), at, SECRET)).toBeNull();
		for (const other of [
			'order-001',
			'',
			null,
			42,
			'.abc',
			ref.replace(/\./g, ''),
			`${ref}.x`,
			`4211.0.${'x'.repeat(13)}`,
		]) {
			expect(questionOf(other, at, SECRET)).toBeNull();
		}
	});

	it('makes no reference it could not check: an id too long, or no secret', () => {
		const longest = '1'.repeat(15);
		expect(fitsQuestionRef(longest)).toBe(true);
		expect(questionRef(asked(longest + '1'), SECRET)).toBeUndefined();
		expect(questionRef(asked('4211'), '')).toBeUndefined();
		expect(
			questionOf(questionRef(asked('4211'), SECRET), { nodeId: NODE, msisdn: NUMBER }, ''),
		).toBeNull();
	});

	it('a question may take one of 16 references (another answer code), each naming it, the first as before variants', () => {
		const at = { nodeId: NODE, msisdn: NUMBER };
		const refs = Array.from({ length: VARIANTS }, (_, v) => questionRef(asked('4211'), SECRET, v)!);
		expect(new Set(refs).size).toBe(VARIANTS);
		expect(refs[0]).toBe(questionRef(asked('4211'), SECRET));
		for (const ref of refs) {
			expect(ref.length).toBeLessThanOrEqual(30);
			expect(questionOf(ref, at, SECRET)).toEqual({ executionId: '4211', ask: 0 });
			expect(questionOf(ref, { ...at, msisdn: '353871234568' }, SECRET)).toBeNull();
		}
		expect(() => questionRef(asked('4211'), SECRET, VARIANTS)).toThrow(RangeError);
		// A variant is no other number's first reference.
		expect(questionOf(refs[3], { ...at, msisdn: `${NUMBER}|3` }, SECRET)).toBeNull();
	});
});
