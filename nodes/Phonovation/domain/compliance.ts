// The rules a send time keeps (Quiet Hours), and what an item's checks found.
import { DateTime } from 'luxon';

import type { QuietHours } from './quietHours';
import { quietHoursEndIn, windowIn } from './quietHours';
import type { RuleViolation } from './rules';
import { wireSendAt } from './sendAt';

/** What one item's checks found: rules it breaks stop it, warnings go to the output. */
export interface Findings {
	violations: RuleViolation[];
	warnings: string[];
}

interface Moment {
	/** The checked Send At (Schedule), or null for a Send. */
	sendAt: string | null;
	now: Date;
	/** The workflow's time zone: quiet hours are in it unless the option names another. */
	zone: string;
}

/**
 * The send time after Quiet Hours named in a time zone: a moment inside them (now for a Send,
 * Send At for a Schedule) moves to the end of the window, in UTC, with a warning that says so.
 * Quiet Hours in each recipient's zone are judged once the campaign's recipients are known.
 */
export function sendAtOutsideQuietHours(
	quiet: QuietHours | null,
	moment: Pick<Moment, 'sendAt' | 'now'>,
	found: Pick<Findings, 'warnings'>,
): string | null {
	if (!quiet || quiet.byRecipient) return moment.sendAt;
	return movedOutOfQuietHours(moment, quiet, [quiet.zone], found);
}

/** A moment inside Quiet Hours in any of `zones` moves to when they have ended in all, with a warning. */
export function movedOutOfQuietHours(
	moment: Pick<Moment, 'sendAt' | 'now'>,
	quiet: QuietHours,
	zones: readonly string[],
	found: Pick<Findings, 'warnings'>,
): string | null {
	const at = moment.sendAt ? new Date(moment.sendAt.replace('Z', ':00Z')) : moment.now;
	const end = quietHoursEndIn(at, quiet, zones);
	if (!end) return moment.sendAt;
	const when = DateTime.fromJSDate(at, { zone: end.zone }).toFormat('yyyy-MM-dd HH:mm');
	const what = moment.sendAt ? `Send At ${when}` : `Sending now (${when})`;
	const moved = wireSendAt(end);
	found.warnings.push(
		`Quiet Hours ${labelOf(quiet, zones)}: ${what} falls inside them, so the campaign is scheduled for ${end.toFormat('yyyy-MM-dd HH:mm')} local time (sendAt ${moved})`,
	);
	return moved;
}

/** `21:00-08:00 Europe/Dublin`, or for recipients' own zones `21:00-08:00 in Europe/Dublin, Europe/Paris`. */
export function labelOf(
	quiet: QuietHours,
	zones: readonly string[] = quiet.zones ?? [quiet.zone],
): string {
	if (!quiet.byRecipient) return quiet.label;
	return `${quiet.label.slice(0, quiet.label.indexOf(' '))} in the recipients' time zones (${zones.join(', ')})`;
}

/**
 * The Quiet Hours an item's options set, or null: none, or a window or zone the options already
 * refused (options/ reads both once, in one written form each, and names their mistakes). With no
 * Quiet Hours Time Zone they are judged in each recipient's zone, the workflow's as fallback.
 */
export function quietHoursOf(
	setting: { quietWindow: string; quietZone: string },
	zone: string,
): QuietHours | null {
	const named = setting.quietZone;
	const quiet = windowIn(setting.quietWindow, named || zone);
	if (!quiet) return null;
	return named ? quiet : { ...quiet, byRecipient: true };
}

/** What the clock says when a request is about to be posted. */
interface TimeAtPosting {
	/** Whether the campaign is a Schedule (its Send At is the user's) or a Send. */
	scheduled: boolean;
	/** Send At as planned: a Schedule's, or a Send's moved out of Quiet Hours at planning. */
	sendAt: string | null;
	quiet: QuietHours | null;
}

type PostingTime =
	{ ok: true; sendAt: string | null; movedInto?: QuietHours } | { ok: false; message: string };

const instantOf = (sendAt: string) => new Date(sendAt.replace('Z', ':00Z')).getTime();

/**
 * The time rules judged again the moment a request is about to go, for every request of a run:
 * a Send posted inside Quiet Hours is scheduled for their end (even when it was planned before
 * they began), a Send planned inside them whose window has ended goes now, and a Schedule whose
 * Send At has passed in the meantime is not posted.
 */
export function sendAtWhenPosted(timing: TimeAtPosting, now: Date): PostingTime {
	if (timing.scheduled) {
		if (timing.sendAt === null || instantOf(timing.sendAt) > now.getTime())
			return { ok: true, sendAt: timing.sendAt };
		const at = wireSendAt(DateTime.fromJSDate(now));
		return {
			ok: false,
			message: `Send At ${timing.sendAt} had passed when the request was about to be posted (now ${at}); nothing was posted for it. Pick a later time`,
		};
	}
	const quiet = timing.quiet;
	const end = quiet ? quietHoursEndIn(now, quiet, quiet.zones ?? [quiet.zone]) : null;
	if (end) return { ok: true, sendAt: wireSendAt(end), movedInto: quiet! };
	if (timing.sendAt !== null && instantOf(timing.sendAt) <= now.getTime())
		return { ok: true, sendAt: null };
	return { ok: true, sendAt: timing.sendAt };
}
