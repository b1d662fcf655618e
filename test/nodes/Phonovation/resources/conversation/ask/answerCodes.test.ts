import {
	answerCodeOf,
	codesHeld,
	earlierWithCode,
	sharedCodeIn,
	variantsOf,
	withFreeCode,
} from '../../../../../../nodes/Phonovation/resources/conversation/ask/answerCodes';
import { questionRef } from '../../../../../../nodes/Phonovation/resources/conversation/proof/questionRef';
import type { LoggedQuestion } from '../../../../../../nodes/Phonovation/resources/conversation/questionLog';

const SECRET = 'a-long-random-relay-secret-0123456789';
const REVIEWER = '353871234567';
const NOW = Date.parse('2026-12-07T12:00:00Z');

const refOf = (executionId: string, nodeId = 'review') =>
	questionRef({ executionId, nodeId, msisdn: REVIEWER, ask: 0 }, SECRET)!;

/** Two references of other executions whose answer codes are the same (found by trying). */
function twoSharingACode(): [string, string] {
	const byCode = new Map<string, string>();
	for (let execution = 1; ; execution++) {
		const ref = refOf(String(execution));
		const code = answerCodeOf(ref, SECRET);
		const other = byCode.get(code);
		if (other) return [other, ref];
		byCode.set(code, ref);
	}
}

const waiting = (reference: string, row: Partial<LoggedQuestion> = {}): LoggedQuestion => ({
	reference,
	phone: REVIEWER,
	resumeUrl: 'http://127.0.0.1:5678/webhook-waiting/1/review',
	askedAt: new Date(NOW - 60_000).toISOString(),
	expiresAt: new Date(NOW + 3_600_000).toISOString(),
	...row,
});

describe('answer codes: two questions waiting for one reviewer never share one', () => {
	it('the codes held are those of questions to the number still waiting, not this question’s own', () => {
		const [open, other, expired, settled, receipt, mine] = ['1', '2', '3', '4', '5', '6'].map((e) =>
			refOf(e),
		);
		const held = codesHeld(
			[
				waiting(open),
				waiting(other, { phone: '353871234568' }),
				waiting(expired, { expiresAt: new Date(NOW - 1).toISOString() }),
				waiting(settled, { settledBy: 'u:first-try mark' }),
				// An answer whose delivery's outcome was unknown may have left it waiting.
				waiting(refOf('8'), { settledBy: 'u:mark' }),
				waiting(receipt, { waitsFor: 'receipt' }),
				waiting(mine),
				waiting(refOf('7'), { expiresAt: '' }),
			],
			{ msisdn: REVIEWER, now: NOW, secret: SECRET, mine: new Set([mine]) },
		);
		expect(held).toEqual(
			new Set([open, refOf('7'), refOf('8')].map((ref) => answerCodeOf(ref, SECRET))),
		);
	});

	it('a question whose first code is held is asked under the next variant whose code is free', () => {
		const variants = variantsOf(
			{ executionId: '900', nodeId: 'review', msisdn: REVIEWER, ask: 0 },
			SECRET,
		);
		expect(variants).toHaveLength(16);
		expect(withFreeCode(variants, new Set(), SECRET)).toBe(variants[0]);
		const firstTwo = new Set(variants.slice(0, 2).map((ref) => answerCodeOf(ref, SECRET)));
		const chosen = withFreeCode(variants, firstTwo, SECRET);
		expect(firstTwo.has(answerCodeOf(chosen, SECRET))).toBe(false);
		expect(variants.indexOf(chosen)).toBeGreaterThanOrEqual(2);
		const all = new Set(variants.map((ref) => answerCodeOf(ref, SECRET)));
		expect(withFreeCode(variants, all, SECRET)).toBe(variants[0]);
		// An earlier attempt's choice (nothing was sent) is kept while its code is free.
		expect(withFreeCode(variants, new Set(), SECRET, variants[5])).toBe(variants[5]);
		const fifth = new Set([answerCodeOf(variants[5], SECRET)]);
		expect(withFreeCode(variants, fifth, SECRET, variants[5])).toBe(variants[0]);
		expect(withFreeCode(variants, new Set(), SECRET, refOf('1'))).toBe(variants[0]);
		// A question without a code needs only its first: the same Notify ID, one MAC instead of 16.
		expect(
			variantsOf({ executionId: '900', nodeId: 'review', msisdn: REVIEWER, ask: 0 }, SECRET, 1),
		).toEqual([variants[0]]);
	});

	it('an answer carrying a code two waiting questions share is named as such; other texts are not', () => {
		const [older, newer] = twoSharingACode();
		const code = answerCodeOf(older, SECRET);
		const third = refOf('third');
		expect(sharedCodeIn(`YES ${code}`, [older, newer, third], SECRET)).toEqual({
			code,
			references: [older, newer],
		});
		expect(sharedCodeIn(`${code} no thanks`, [newer, older], SECRET)?.code).toBe(code);
		expect(sharedCodeIn('YES', [older, newer], SECRET)).toBeNull();
		expect(sharedCodeIn(`YES ${code}1`, [older, newer], SECRET)).toBeNull();
		expect(
			sharedCodeIn(`YES ${answerCodeOf(third, SECRET)}`, [older, newer, third], SECRET),
		).toBeNull();
		expect(sharedCodeIn(`YES ${code}`, [older, third], SECRET)).toBeNull();
		// A row copied whole is one question, not two sharing a code.
		expect(sharedCodeIn(`YES ${code}`, [older, older, third], SECRET)).toBeNull();
	});

	it('of two questions asked at once that drew one code, only the later is told to take another', () => {
		const [first, second] = twoSharingACode();
		const at = new Date(NOW - 1_000).toISOString();
		const rows = [waiting(first, { askedAt: at }), waiting(second, { askedAt: at })];
		const context = (mine: string) => ({
			msisdn: REVIEWER,
			now: NOW,
			secret: SECRET,
			mine: new Set([mine]),
		});
		const [earlier, later] = [first, second].sort();
		expect(earlierWithCode(rows, { reference: later, askedAt: at }, context(later))).toMatchObject({
			reference: earlier,
		});
		expect(earlierWithCode(rows, { reference: earlier, askedAt: at }, context(earlier))).toBe(
			undefined,
		);
		const sooner = new Date(NOW - 2_000).toISOString();
		expect(earlierWithCode(rows, { reference: earlier, askedAt: sooner }, context(earlier))).toBe(
			undefined,
		);
		// An answered rival holds its code no more.
		const answered = [waiting(earlier, { askedAt: at, settledBy: 'mark' })];
		expect(earlierWithCode(answered, { reference: later, askedAt: at }, context(later))).toBe(
			undefined,
		);
	});
});
