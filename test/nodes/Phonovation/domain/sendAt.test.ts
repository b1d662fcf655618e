import { DateTime } from 'luxon';

import { toSendAt } from '../../../../nodes/Phonovation/domain/sendAt';

const NOW = new Date('2030-03-28T12:00:00Z');

describe('toSendAt', () => {
	it.each([
		['an offset', '2030-06-01T10:00+01:00', 'Europe/Dublin', '2030-06-01T09:00Z'],
		['Z', '2030-06-01T09:00:59Z', 'Europe/Dublin', '2030-06-01T09:00Z'],
		['no zone, Irish summer time', '2030-06-01T10:00', 'Europe/Dublin', '2030-06-01T09:00Z'],
		['no zone, Irish winter time', '2030-12-01T10:00', 'Europe/Dublin', '2030-12-01T10:00Z'],
		['no zone, New York', '2030-12-01T10:00', 'America/New_York', '2030-12-01T15:00Z'],
		['SQL style', '2030-12-01 10:00:00', 'UTC', '2030-12-01T10:00Z'],
		['SQL style, New York', '2030-12-01 10:00:00', 'America/New_York', '2030-12-01T15:00Z'],
		['RFC 2822 style', 'Sun, 01 Dec 2030 10:00:00 +0100', 'America/New_York', '2030-12-01T09:00Z'],
		['spaces around it', '  2030-06-01T10:00+01:00 ', 'UTC', '2030-06-01T09:00Z'],
	])('converts a time with %s to UTC minutes', (_name, input, zone, expected) => {
		expect(toSendAt(input, zone, NOW)).toMatchObject({ ok: true, sendAt: expected });
	});

	it('accepts luxon DateTime, Date and epoch milliseconds', () => {
		const at = DateTime.fromISO('2030-04-01T08:15:30Z');
		expect(toSendAt(at, 'UTC', NOW)).toMatchObject({ sendAt: '2030-04-01T08:15Z' });
		expect(toSendAt(at.toJSDate(), 'UTC', NOW)).toMatchObject({ sendAt: '2030-04-01T08:15Z' });
		expect(toSendAt(at.toMillis(), 'UTC', NOW)).toMatchObject({ sendAt: '2030-04-01T08:15Z' });
	});

	it.each([
		['the past', '2030-03-28T11:59Z', /in the past/],
		['the current minute', '2030-03-28T12:00:30Z', /in the past/],
		['garbage', 'soon', /is not a date-time/],
		['an impossible date', '2030-02-30T10:00', /is not a date-time/],
		['empty', '', /is not a date-time/],
		['blank', '   ', /is not a date-time/],
		[
			'nothing (an expression that gave undefined)',
			undefined,
			/^Send At "undefined" is not a date-time/,
		],
		['null', null, /^Send At "null" is not a date-time/],
		['true', true, /^Send At "true" is not a date-time/],
		['an object', { at: '2030-06-01T10:00' }, /is not a date-time/],
		['an endless number', Infinity, /^Send At "Infinity" is not a date-time/],
	])('refuses %s', (_name, input, message) => {
		const result = toSendAt(input, 'UTC', NOW);
		expect(result.ok).toBe(false);
		expect(!result.ok && result.message).toMatch(message);
	});
});
