import type { QuietHours } from '../../../../nodes/Phonovation/domain/quietHours';
import {
	canonicalWindow,
	hasOpenWindow,
	quietHoursEnd,
	quietHoursEndIn,
	windowIn,
} from '../../../../nodes/Phonovation/domain/quietHours';

const DUBLIN = 'Europe/Dublin';

/** The Quiet Hours option as the pipeline reads it: in one written form (the option's read), then in a zone. */
function parseQuietHours(text: unknown, zone: string) {
	const written = canonicalWindow(text);
	return written.ok ? { ok: true, quietHours: windowIn(written.value, zone) } : written;
}

function window(text: string, zone = DUBLIN): QuietHours {
	const parsed = parseQuietHours(text, zone);
	if (!parsed.ok || !parsed.quietHours) throw new Error(`no window: ${text}`);
	return parsed.quietHours;
}

const endOf = (moment: string, text = '21:00-08:00', zone = DUBLIN) =>
	quietHoursEnd(new Date(moment), window(text, zone))?.toUTC().toISO() ?? null;

/** One test per case: a moment (UTC) and when quiet hours 21:00-08:00 in Dublin around it end, or null. */
const itEnds = (cases: Array<[string, string, string | null]>) =>
	it.each(cases)('%s', (_name, moment, end) => {
		expect(endOf(moment)).toBe(end);
	});

describe('quiet hours', () => {
	it.each([
		['21:00-08:00', 21 * 60, 8 * 60],
		['9:30 – 17:00', 9 * 60 + 30, 17 * 60],
		['22:15 to 07:45', 22 * 60 + 15, 7 * 60 + 45],
	])('reads "%s"', (text, start, end) => {
		expect(parseQuietHours(text, DUBLIN)).toEqual({
			ok: true,
			quietHours: expect.objectContaining({ start, end, zone: DUBLIN }),
		});
	});

	it('labels the window as the user should read it, with two-digit hours and minutes and the zone', () => {
		expect(parseQuietHours('  9:30 – 17:05 ', DUBLIN)).toEqual({
			ok: true,
			quietHours: {
				start: 9 * 60 + 30,
				end: 17 * 60 + 5,
				zone: DUBLIN,
				label: '09:30-17:05 Europe/Dublin',
			},
		});
		expect(parseQuietHours('23:45-0:00', 'America/New_York')).toMatchObject({
			quietHours: { label: '23:45-00:00 America/New_York' },
		});
	});

	it('an empty option means no quiet hours', () => {
		expect(parseQuietHours('', DUBLIN)).toEqual({ ok: true, quietHours: null });
		expect(parseQuietHours(null, DUBLIN)).toEqual({ ok: true, quietHours: null });
	});

	it.each([
		['9pm-8am', '"9pm-8am" is not a window such as 21:00-08:00 (24-hour clock)'],
		['24:00-08:00', '"24:00-08:00" is not a window such as 21:00-08:00 (24-hour clock)'],
		['08:00-08:00', '"08:00-08:00" starts and ends at the same time'],
	])('refuses "%s" (the option names itself before the problem)', (text, problem) => {
		expect(canonicalWindow(text)).toEqual({ ok: false, problem });
	});

	itEnds([
		[
			'23:30 Irish summer time → 08:00 the next morning',
			'2030-06-01T22:30:00Z',
			'2030-06-02T07:00:00.000Z',
		],
		[
			'23:30 Irish winter time → 08:00 the next morning',
			'2030-12-01T23:30:00Z',
			'2030-12-02T08:00:00.000Z',
		],
		[
			'02:00, after midnight → 08:00 that morning',
			'2030-12-02T02:00:00Z',
			'2030-12-02T08:00:00.000Z',
		],
		['07:59:59 is still inside', '2030-12-02T07:59:59Z', '2030-12-02T08:00:00.000Z'],
		['21:00 is inside', '2030-12-01T21:00:00Z', '2030-12-02T08:00:00.000Z'],
		['08:00 is outside', '2030-12-02T08:00:00Z', null],
		['20:59 is outside', '2030-12-01T20:59:00Z', null],
		['noon is outside', '2030-06-01T11:00:00Z', null],
	]);

	describe('across the 2030 Dublin clock changes', () => {
		itEnds([
			[
				'23:30 GMT on 30 March → 08:00 IST on 31 March (a 7.5 h night)',
				'2030-03-30T23:30:00Z',
				'2030-03-31T07:00:00.000Z',
			],
			[
				'00:30 GMT on 31 March, before the clocks go forward',
				'2030-03-31T00:30:00Z',
				'2030-03-31T07:00:00.000Z',
			],
			[
				'03:00 IST on 31 March, after they went forward',
				'2030-03-31T02:00:00Z',
				'2030-03-31T07:00:00.000Z',
			],
			[
				'23:30 IST on 26 October → 08:00 GMT on 27 October (a 9.5 h night)',
				'2030-10-26T22:30:00Z',
				'2030-10-27T08:00:00.000Z',
			],
			['the first 01:30 on 27 October (IST)', '2030-10-27T00:30:00Z', '2030-10-27T08:00:00.000Z'],
			['the second 01:30 on 27 October (GMT)', '2030-10-27T01:30:00Z', '2030-10-27T08:00:00.000Z'],
		]);

		it('a window that ends at 01:30 on 31 March, a time that does not exist, ends at 02:30 IST', () => {
			expect(endOf('2030-03-31T00:45:00Z', '00:30-01:30')).toBe('2030-03-31T01:30:00.000Z');
		});
	});

	it('a window within one day (12:00-14:00) holds a moment inside it until its end', () => {
		expect(endOf('2030-12-01T12:30:00Z', '12:00-14:00')).toBe('2030-12-01T14:00:00.000Z');
		expect(endOf('2030-12-01T23:30:00Z', '12:00-14:00')).toBeNull();
	});

	it('a window within one day starts at its first minute and ends before its last', () => {
		// December: Dublin is on UTC.
		expect(endOf('2030-12-01T11:59:00Z', '12:00-14:00')).toBeNull();
		expect(endOf('2030-12-01T12:00:00Z', '12:00-14:00')).toBe('2030-12-01T14:00:00.000Z');
		expect(endOf('2030-12-01T13:59:00Z', '12:00-14:00')).toBe('2030-12-01T14:00:00.000Z');
		expect(endOf('2030-12-01T14:00:00Z', '12:00-14:00')).toBeNull();
	});

	it("reads the moment in the window's zone, not UTC", () => {
		// 23:30 in Dublin is 18:30 in New York: outside New York's quiet hours.
		expect(endOf('2030-12-01T23:30:00Z', '21:00-08:00', 'America/New_York')).toBeNull();
		expect(endOf('2030-12-02T03:00:00Z', '21:00-08:00', 'America/New_York')).toBe(
			'2030-12-02T13:00:00.000Z',
		);
	});
});

describe("quiet hours across the recipients' time zones", () => {
	const night = window('21:00-08:00');

	it('ends when it has ended in every zone: Dublin and Paris at 21:30 Dublin time wait for 08:00 Dublin', () => {
		const end = quietHoursEndIn(new Date('2030-01-15T21:30:00Z'), night!, [
			'Europe/Dublin',
			'Europe/Paris',
		]);
		expect(end?.toUTC().toISO()).toBe('2030-01-16T08:00:00.000Z');
	});

	it('at 20:30 Dublin time it is already quiet in Paris (21:30 there), until 08:00 Dublin', () => {
		const end = quietHoursEndIn(new Date('2030-01-15T20:30:00Z'), night!, [
			'Europe/Dublin',
			'Europe/Paris',
		]);
		expect(end?.toUTC().toISO()).toBe('2030-01-16T08:00:00.000Z');
		expect(quietHoursEndIn(new Date('2030-01-15T20:30:00Z'), night!, ['Europe/Dublin'])).toBeNull();
	});

	it('at 07:30 Dublin time Paris is awake (08:30) but Dublin is not: 08:00 Dublin', () => {
		const end = quietHoursEndIn(new Date('2030-01-15T07:30:00Z'), night!, [
			'Europe/Paris',
			'Europe/Dublin',
		]);
		expect(end?.toUTC().toISO()).toBe('2030-01-15T08:00:00.000Z');
	});

	it('is null when the moment is outside the window everywhere', () => {
		expect(
			quietHoursEndIn(new Date('2030-01-15T12:00:00Z'), night!, ['Europe/Dublin', 'Europe/Paris']),
		).toBeNull();
		// Noon in Dublin is 21:00 in Tokyo, quiet until 23:00 UTC, when Dublin is quiet until 08:00 (17:00 in Tokyo).
		expect(
			quietHoursEndIn(new Date('2030-01-15T12:00:00Z'), night!, ['Europe/Dublin', 'Asia/Tokyo'])
				?.toUTC()
				.toISO(),
		).toBe('2030-01-16T08:00:00.000Z');
	});
});

describe('whether any time of day is outside Quiet Hours in every zone', () => {
	const night = (text: string) => window(text);
	const winter = new Date('2030-01-15T12:00:00Z');

	it('Dublin and Tokyo under 21:00-08:00 share 08:00-12:00 UTC; with New York added none is left', () => {
		expect(hasOpenWindow(winter, night('21:00-08:00')!, ['Europe/Dublin', 'Asia/Tokyo'])).toBe(
			true,
		);
		expect(
			hasOpenWindow(winter, night('21:00-08:00')!, [
				'Europe/Dublin',
				'Asia/Tokyo',
				'America/New_York',
			]),
		).toBe(false);
	});

	it('one zone always has a window; a short window leaves room across the world', () => {
		expect(hasOpenWindow(winter, night('21:00-08:00')!, ['Asia/Tokyo'])).toBe(true);
		// 23:00-06:00 leaves 11:00-14:00 and 21:00-23:00 UTC awake in all three.
		expect(
			hasOpenWindow(winter, night('23:00-06:00')!, [
				'Europe/Dublin',
				'Asia/Tokyo',
				'America/New_York',
			]),
		).toBe(true);
	});

	it('counts to the minute, with half-hour zones: under 00:00-23:30 each zone is open half an hour', () => {
		// Open 23:30-24:00 Dublin (23:30 UTC) and 23:30-24:00 Kolkata (18:00 UTC): never both.
		expect(hasOpenWindow(winter, night('00:00-23:30')!, ['Asia/Kolkata'])).toBe(true);
		expect(hasOpenWindow(winter, night('00:00-23:30')!, ['Europe/Dublin', 'Asia/Kolkata'])).toBe(
			false,
		);
		// Kathmandu (+05:45) opens 18:15-18:45 UTC, overlapping Kolkata's 18:00-18:30.
		expect(hasOpenWindow(winter, night('00:00-23:30')!, ['Asia/Kathmandu', 'Asia/Kolkata'])).toBe(
			true,
		);
	});
});
