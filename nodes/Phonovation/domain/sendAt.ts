// Send At: a date-time in any zone made the provider's UTC `sendAt`, refused unless in the future.
import { DateTime } from 'luxon';

/** The provider's `sendAt`: UTC to the minute, `yyyy-MM-ddTHH:mmZ`. */
export function wireSendAt(at: DateTime): string {
	return at.toUTC().startOf('minute').toFormat("yyyy-MM-dd'T'HH:mm'Z'");
}

type SendAtResult = { ok: true; sendAt: string } | { ok: false; message: string };

function parse(value: unknown, zone: string): DateTime | undefined {
	if (DateTime.isDateTime(value)) return value;
	if (value instanceof Date) return DateTime.fromJSDate(value);
	if (typeof value === 'number' && Number.isFinite(value)) return DateTime.fromMillis(value);
	if (typeof value !== 'string') return undefined;
	// Blank text parses as nothing below.
	const text = value.trim();
	// A time without an offset means wall-clock time in the workflow's zone, as n8n's date picker gives it.
	for (const candidate of [
		DateTime.fromISO(text, { zone, setZone: true }),
		DateTime.fromSQL(text, { zone, setZone: true }),
		DateTime.fromRFC2822(text, { zone, setZone: true }),
	]) {
		if (candidate.isValid) return candidate;
	}
	return undefined;
}

/**
 * Converts a date-time in any zone to the provider's UTC `yyyy-MM-ddTHH:mmZ` (seconds dropped).
 * A time that is not after `now` is refused: the provider would send at once or reject it.
 */
export function toSendAt(value: unknown, zone: string, now: Date = new Date()): SendAtResult {
	const parsed = parse(value, zone);
	if (!parsed || !parsed.isValid) {
		return {
			ok: false,
			message: `Send At "${String(value)}" is not a date-time; use ISO 8601, e.g. 2030-06-01T09:00 or 2030-06-01T10:00+01:00`,
		};
	}
	const minute = parsed.toUTC().startOf('minute');
	if (minute.toMillis() <= now.getTime()) {
		return {
			ok: false,
			message: `Send At ${wireSendAt(minute)} is in the past (now ${wireSendAt(DateTime.fromJSDate(now))}); pick a later time or use the Send operation`,
		};
	}
	return { ok: true, sendAt: wireSendAt(minute) };
}
