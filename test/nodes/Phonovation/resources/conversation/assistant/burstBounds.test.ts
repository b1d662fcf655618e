import { stampedWithin } from '../../../../../../nodes/Phonovation/resources/conversation/assistant/burstBounds';

const at = (sentAt: number, providerAt?: number) => ({
	id: String(sentAt),
	text: '',
	sentAt,
	...(providerAt === undefined ? {} : { providerAt }),
});

describe("whether the provider's stamps prove two texts were sent within a time (stampedWithin)", () => {
	it('proves nothing when either text has no stamp', () => {
		expect(stampedWithin(at(0), at(9_000, 0), 5_000)).toBe(false);
		expect(stampedWithin(at(0, 0), at(9_000), 5_000)).toBe(false);
	});

	it('proves texts a backlog stretched were sent close, only where whole seconds can', () => {
		// Sent 1.2 s apart: stamped a second or two apart, reached n8n 9 s apart.
		expect(stampedWithin(at(0, 0), at(9_000, 1_000), 5_000)).toBe(true);
		expect(stampedWithin(at(0, 0), at(9_000, 2_000), 5_000)).toBe(true);
		// Stamped 4 s apart: sent less than 5 s apart. Stamped 5 s apart: perhaps 5.9 s.
		expect(stampedWithin(at(0, 0), at(9_000, 4_000), 5_000)).toBe(true);
		expect(stampedWithin(at(0, 0), at(9_000, 5_000), 5_000)).toBe(false);
		// A quiet time of 2 s: stamped 1 s apart proves it, 2 s apart does not (sent up to 2.99 s apart).
		expect(stampedWithin(at(0, 0), at(9_000, 1_000), 2_000)).toBe(true);
		expect(stampedWithin(at(0, 0), at(9_000, 2_000), 2_000)).toBe(false);
		// A quiet time of 1 s: only the same second.
		expect(stampedWithin(at(0, 0), at(1_500, 0), 1_000)).toBe(true);
		expect(stampedWithin(at(0, 0), at(1_500, 1_000), 1_000)).toBe(false);
		// Out of order on the way: stamped before, reached n8n after.
		expect(stampedWithin(at(0, 5_000), at(9_000, 4_000), 2_000)).toBe(true);
	});

	it('does not believe stamps that tell otherwise than the arrivals by more than two minutes', () => {
		expect(stampedWithin(at(0, 0), at(120_001, 0), 5_000)).toBe(false);
		expect(stampedWithin(at(0, 0), at(120_000, 0), 5_000)).toBe(true);
		expect(stampedWithin(at(0, 0), at(9_000, 600_000), 5_000)).toBe(false);
		expect(stampedWithin(at(0, Number.NaN), at(9_000, 0), 5_000)).toBe(false);
	});
});
