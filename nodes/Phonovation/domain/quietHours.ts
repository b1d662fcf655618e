// Quiet Hours: the daily window in its one written form, and when it ends in each time zone.
import { DateTime, IANAZone } from 'luxon';

/** A daily window in local time, in minutes after midnight; `start > end` runs past midnight. */
export interface QuietHours {
	start: number;
	end: number;
	zone: string;
	/** As the user should read it: `21:00-08:00 Europe/Dublin`. */
	label: string;
	/**
	 * Judged in each recipient's own time zone (no Quiet Hours Time Zone was given): `zone` is the
	 * workflow's, for recipients whose country has no single zone.
	 */
	byRecipient?: boolean;
	/** The zones a campaign's recipients are in, once known: it must be quiet in none of them. */
	zones?: readonly string[];
}

const CLOCK = '([01]?\\d|2[0-3]):([0-5]\\d)';
const WINDOW = new RegExp(`^${CLOCK}\\s*(?:-|–|—|to)\\s*${CLOCK}$`, 'i');

const hhmm = (minutes: number) =>
	`${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * A Quiet Hours window in its one written form (`9:00 – 17:00` → `09:00-17:00`, '' when empty),
 * or what is wrong with it: rows that write one window two ways are one campaign.
 */
export function canonicalWindow(
	window: unknown,
): { ok: true; value: string } | { ok: false; problem: string } {
	const text = String(window ?? '').trim();
	if (text === '') return { ok: true, value: '' };
	const match = WINDOW.exec(text);
	if (!match)
		return {
			ok: false,
			problem: `"${text.slice(0, 40)}" is not a window such as 21:00-08:00 (24-hour clock)`,
		};
	const [start, end] = [
		Number(match[1]) * 60 + Number(match[2]),
		Number(match[3]) * 60 + Number(match[4]),
	];
	if (start === end) return { ok: false, problem: `"${text}" starts and ends at the same time` };
	return { ok: true, value: `${hhmm(start)}-${hhmm(end)}` };
}

/** A time zone name in its one spelling (`europe/dublin` → `Europe/Dublin`, '' when empty), or what is wrong. */
export function canonicalZone(
	zone: unknown,
): { ok: true; value: string } | { ok: false; problem: string } {
	const text = String(zone ?? '').trim();
	if (text === '') return { ok: true, value: '' };
	if (!IANAZone.isValidZone(text)) {
		return {
			ok: false,
			problem: `"${text.slice(0, 40)}" is not a time zone; use a name such as Europe/Dublin`,
		};
	}
	return {
		ok: true,
		value: new Intl.DateTimeFormat('en', { timeZone: text }).resolvedOptions().timeZone,
	};
}

/**
 * A window in its one written form (canonicalWindow's `21:00-08:00`, '' for none) in `zone`, null
 * when empty. Both were read and checked with their options: this only takes the form apart.
 */
export function windowIn(window: string, zone: string): QuietHours | null {
	if (window === '') return null;
	const [start, end] = window.split('-').map((clock) => {
		const [hours, minutes] = clock.split(':').map(Number);
		return hours * 60 + minutes;
	});
	return { start, end, zone, label: `${window} ${zone}` };
}

/**
 * When the quiet hours around `moment` end, or null when `moment` is outside them. Wall-clock
 * arithmetic in the window's zone, so a night across a clock change still ends at its local time.
 */
export function quietHoursEnd(moment: Date, quiet: QuietHours): DateTime | null {
	const local = DateTime.fromJSDate(moment, { zone: quiet.zone });
	const minute = local.hour * 60 + local.minute;
	const overnight = quiet.start > quiet.end;
	const inside = overnight
		? minute >= quiet.start || minute < quiet.end
		: minute >= quiet.start && minute < quiet.end;
	if (!inside) return null;
	const day = overnight && minute >= quiet.start ? local.plus({ days: 1 }) : local;
	return day.set({
		hour: Math.floor(quiet.end / 60),
		minute: quiet.end % 60,
		second: 0,
		millisecond: 0,
	});
}

/**
 * When the quiet hours around `moment` end in every one of `zones`, or null when `moment` is
 * outside them in all. From the latest end it looks again, as that may fall inside another
 * zone's next window; when no moment is outside all of them (zones too far apart), the last
 * end found is returned.
 */
export function quietHoursEndIn(
	moment: Date,
	quiet: QuietHours,
	zones: readonly string[],
): DateTime | null {
	let at = moment;
	let latest: DateTime | null = null;
	for (let round = 0; round <= zones.length; round++) {
		let later: DateTime | null = null;
		for (const zone of zones) {
			const end = quietHoursEnd(at, { ...quiet, zone });
			if (end && (!later || end.toMillis() > later.toMillis())) later = end;
		}
		if (!later) return latest;
		latest = later;
		at = later.toJSDate();
	}
	return latest;
}

const MINUTES_PER_DAY = 24 * 60;

/**
 * Whether some minute of the day is outside Quiet Hours in every one of `zones` (at their UTC
 * offsets around `moment`). With none, no send time can be found: recipients in Ireland, Japan and
 * the US under 21:00-08:00 are always quiet somewhere.
 */
export function hasOpenWindow(moment: Date, quiet: QuietHours, zones: readonly string[]): boolean {
	const quietAt = new Uint8Array(MINUTES_PER_DAY);
	const overnight = quiet.start > quiet.end;
	for (const zone of zones) {
		const offset = DateTime.fromJSDate(moment, { zone }).offset;
		for (let utc = 0; utc < MINUTES_PER_DAY; utc++) {
			const local = (((utc + offset) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
			if (
				overnight
					? local >= quiet.start || local < quiet.end
					: local >= quiet.start && local < quiet.end
			)
				quietAt[utc] = 1;
		}
	}
	return quietAt.includes(0);
}
