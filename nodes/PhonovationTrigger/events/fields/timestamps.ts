// Items' time stamps in ISO 8601 UTC: SMS-TimeStamp and FinishedAt, impossible ones refused.
/**
 * The time stamps items carry, as ISO 8601 UTC: the gateway's SMS-TimeStamp and a processing
 * result's FinishedAt, refusing impossible ones.
 */

import { DateTime } from 'luxon';

import { badRequest } from '../../incoming/rejection';

interface Parts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
}

/** Luxon rolls some out-of-range values over (hour 24 becomes the next day); refuse those. */
function isoOrReject(date: DateTime, parts: Parts, field: string): string {
	const exact =
		date.isValid &&
		date.year === parts.year &&
		date.month === parts.month &&
		date.day === parts.day &&
		date.hour === parts.hour &&
		date.minute === parts.minute &&
		date.second === parts.second;
	if (!exact || parts.year < 1) throw badRequest(`${field} is not a valid date-time`);
	return date.toUTC().toISO({ suppressMilliseconds: false }) as string;
}

/**
 * `SMS-TimeStamp` is `yyyy-MM-dd HH:mm:ss` in UTC (documented for receipts, assumed for
 * inbound). Missing or empty gives null; anything else that is not a real instant is refused.
 */
export function gatewayTimestamp(value: string | undefined): string | null {
	const text = value?.trim() ?? '';
	if (text === '') return null;
	const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text);
	if (!match) throw badRequest('SMS-TimeStamp is not yyyy-MM-dd HH:mm:ss');
	const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
	// Read on every relay, so without luxon: a UTC date rolls any field out of range over, and the
	// read-back must equal what was written (the same exact check isoOrReject makes for FinishedAt).
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute, second, 0);
	const exact =
		date.getUTCFullYear() === year &&
		date.getUTCMonth() === month - 1 &&
		date.getUTCDate() === day &&
		date.getUTCHours() === hour &&
		date.getUTCMinutes() === minute &&
		date.getUTCSeconds() === second;
	if (!exact || year < 1) throw badRequest('SMS-TimeStamp is not a valid date-time');
	return date.toISOString();
}

/**
 * `FinishedAt` is ISO 8601 in UTC with 0 to 7 fractional digits (the provider sends 5, 6 and
 * 7); the output keeps milliseconds. No offset means UTC.
 */
export function finishedAtOf(value: unknown): string | null {
	if (value === undefined || value === null || value === '') return null;
	if (typeof value !== 'string') throw badRequest('FinishedAt is not a date-time string');
	const text = value.trim();
	const match =
		/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?(Z|[+-]\d{2}:?\d{2})?$/i.exec(
			text,
		);
	if (!match) throw badRequest('FinishedAt is not an ISO 8601 date-time');
	const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
	const millisecond = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
	const offset = match[8]?.toUpperCase() ?? 'Z';
	const zone = offset === 'Z' ? 'utc' : `UTC${offset.slice(0, 3)}:${offset.slice(-2)}`;
	const parts = { year, month, day, hour, minute, second };
	const date = DateTime.fromObject({ ...parts, millisecond }, { zone });
	return isoOrReject(date, parts, 'FinishedAt');
}
