import { sentWithin } from '../../../../../../nodes/Phonovation/resources/conversation/assistant/burstBounds';

const at = (sentAt: number, providerAt?: number) => ({
	id: String(sentAt),
	text: '',
	sentAt,
	...(providerAt === undefined ? {} : { providerAt }),
});

describe('whether two texts were sent within a time of each other (sentWithin)', () => {
	it('is read from when they reached n8n when the provider stamped neither', () => {
		expect(sentWithin(at(0), at(5_000), 5_000)).toBe(true);
		expect(sentWithin(at(5_000), at(0), 5_000)).toBe(true);
		expect(sentWithin(at(0), at(5_001), 5_000)).toBe(false);
		expect(sentWithin(at(0, 0), at(5_001), 5_000)).toBe(false);
	});

	it('is read from the stamps when a backlog stretched the arrivals: whole seconds, rounded up', () => {
		// Sent 1.2 s apart, stamped a second or two apart, reached n8n 9 s apart.
		expect(sentWithin(at(0, 0), at(9_000, 1_000), 2_000)).toBe(true);
		expect(sentWithin(at(0, 0), at(9_000, 2_000), 2_000)).toBe(true);
		expect(sentWithin(at(0, 0), at(9_000, 3_000), 2_000)).toBe(false);
		// Half a quiet time of 5 s: texts sent 2.5 s apart may be stamped 3 s apart.
		expect(sentWithin(at(0, 0), at(9_000, 3_000), 2_500)).toBe(true);
		expect(sentWithin(at(0, 0), at(9_000, 4_000), 2_500)).toBe(false);
		// Out of order on the way: stamped before, reached n8n after.
		expect(sentWithin(at(0, 5_000), at(9_000, 4_000), 2_000)).toBe(true);
	});

	it('does not believe stamps that tell otherwise than the arrivals by more than two minutes', () => {
		expect(sentWithin(at(0, 0), at(130_000, 0), 5_000)).toBe(false);
		expect(sentWithin(at(0, 0), at(119_000, 0), 5_000)).toBe(true);
		expect(sentWithin(at(0, 0), at(9_000, 600_000), 5_000)).toBe(false);
	});
});
