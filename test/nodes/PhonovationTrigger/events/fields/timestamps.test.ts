import { DateTime } from 'luxon';

import {
	finishedAtOf,
	gatewayTimestamp,
} from '../../../../../nodes/PhonovationTrigger/events/fields/timestamps';
import { rejectionOf } from '../../support';

describe('SMS-TimeStamp (yyyy-MM-dd HH:mm:ss, UTC)', () => {
	it('reads it with spaces around it, and an empty one as none', () => {
		expect(gatewayTimestamp(' 2024-01-10 14:17:44 ')).toBe('2024-01-10T14:17:44.000Z');
		expect(gatewayTimestamp('2024-01-10T14:17:44')).toBe('2024-01-10T14:17:44.000Z');
		expect(gatewayTimestamp('0001-01-01 00:00:00')).toBe('0001-01-01T00:00:00.000Z');
		expect(gatewayTimestamp('  ')).toBeNull();
	});

	it.each([
		['another format', 'yesterday', 'SMS-TimeStamp is not yyyy-MM-dd HH:mm:ss'],
		['text before it', 'x2024-01-10 14:17:44', 'SMS-TimeStamp is not yyyy-MM-dd HH:mm:ss'],
		['text after it', '2024-01-10 14:17:44x', 'SMS-TimeStamp is not yyyy-MM-dd HH:mm:ss'],
		[
			'hour 24, which would roll over to the next day',
			'2024-01-10 24:00:00',
			'SMS-TimeStamp is not a valid date-time',
		],
		['31 April', '2024-04-31 10:00:00', 'SMS-TimeStamp is not a valid date-time'],
		['month 13', '2024-13-01 10:00:00', 'SMS-TimeStamp is not a valid date-time'],
		['second 60', '2024-01-10 10:00:60', 'SMS-TimeStamp is not a valid date-time'],
		['year 0', '0000-01-01 00:00:00', 'SMS-TimeStamp is not a valid date-time'],
	])('refuses %s with 400', (_name, value, detail) => {
		expect(rejectionOf(() => gatewayTimestamp(value))).toMatchObject({ status: 400, detail });
	});
});

describe('SMS-TimeStamp read without luxon (it is read on every relay)', () => {
	/** What luxon made of it before: exact fields in UTC, else refused (null here). */
	function byLuxon(text: string): string | null {
		const [year, month, day, hour, minute, second] = text.split(/[- :]/).map(Number);
		const date = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone: 'utc' });
		const exact =
			date.isValid &&
			date.year === year &&
			date.month === month &&
			date.day === day &&
			date.hour === hour &&
			date.minute === minute &&
			date.second === second;
		return exact && year >= 1
			? (date.toUTC().toISO({ suppressMilliseconds: false }) as string)
			: null;
	}

	function ours(text: string): string | null {
		try {
			return gatewayTimestamp(text);
		} catch {
			return null;
		}
	}

	const pad = (n: number, width = 2) => String(n).padStart(width, '0');

	it('agrees with luxon on every day of leap and common years, years below 100 and the edges of each field', () => {
		const texts: string[] = [];
		for (const year of [1, 99, 100, 1900, 1970, 2000, 2023, 2024, 2100, 9999]) {
			for (let month = 0; month <= 13; month++) {
				for (let day = 0; day <= 32; day++)
					texts.push(`${pad(year, 4)}-${pad(month)}-${pad(day)} 12:30:30`);
			}
		}
		for (const [hour, minute, second] of [
			[0, 0, 0],
			[23, 59, 59],
			[24, 0, 0],
			[12, 60, 0],
			[12, 0, 60],
			[99, 99, 99],
		]) {
			texts.push(`2024-02-29 ${pad(hour)}:${pad(minute)}:${pad(second)}`);
		}
		texts.push('0000-01-01 00:00:00');
		for (const text of texts) expect([text, ours(text)]).toEqual([text, byLuxon(text)]);
	});
});

describe('FinishedAt (ISO 8601)', () => {
	it('reads it with spaces around it; no offset means UTC', () => {
		expect(finishedAtOf(' 2026-04-09T14:39:40.12Z ')).toBe('2026-04-09T14:39:40.120Z');
		expect(finishedAtOf('2026-04-09T14:39:40')).toBe('2026-04-09T14:39:40.000Z');
		expect(finishedAtOf('2026-04-09T16:39:40+02:00')).toBe('2026-04-09T14:39:40.000Z');
		expect(finishedAtOf('2026-04-09T11:39:40-0300')).toBe('2026-04-09T14:39:40.000Z');
	});

	it('absent, null and empty are none', () => {
		expect(finishedAtOf(undefined)).toBeNull();
		expect(finishedAtOf(null)).toBeNull();
		expect(finishedAtOf('')).toBeNull();
	});

	it.each([
		['a number', 1712673580, 'FinishedAt is not a date-time string'],
		['an object', { at: 1 }, 'FinishedAt is not a date-time string'],
		['text before it', 'x2026-04-09T14:39:40Z', 'FinishedAt is not an ISO 8601 date-time'],
		['text after it', '2026-04-09T14:39:40Zx', 'FinishedAt is not an ISO 8601 date-time'],
		[
			'eight fractional digits',
			'2026-04-09T14:39:40.12345678Z',
			'FinishedAt is not an ISO 8601 date-time',
		],
		['hour 24', '2026-04-09T24:00:00Z', 'FinishedAt is not a valid date-time'],
		['30 February', '2026-02-30T10:00:00Z', 'FinishedAt is not a valid date-time'],
	])('refuses %s with 400', (_name, value, detail) => {
		expect(rejectionOf(() => finishedAtOf(value))).toMatchObject({ status: 400, detail });
	});
});
