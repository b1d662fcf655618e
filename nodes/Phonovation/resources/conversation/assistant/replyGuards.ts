// What may stop an assistant's reply before it is paid for: pure, imports nothing from n8n.
import { handoverRefusal, sentReplies } from './handoverState';
import { earlierAnswer, type LoggedMessage, repliesUpTo } from './messages';

/** A number of six digits or fewer is a shortcode (50123, a keyword service): nobody reads a reply there. */
const SHORTCODE = /^\d{3,6}$/;

/** Who a reply goes to, and from which number. */
export interface ReplyTarget {
	/** The person's number as written (before it is read as a phone number). */
	writtenTo: string;
	/** The person's number in international digits; null when it is none. */
	to: string | null;
	/** The number the reply goes from, as given. */
	from: string;
}

/** The account's senders: every name, and the numeric ones (longcodes). */
export interface AccountSenders {
	names: ReadonlySet<string>;
	longcodes: ReadonlySet<string>;
}

const digits = (value: string) => value.replace(/^\+/, '').trim();

/** Why the reply may not go to or from these numbers; null when it may. Checked before anything is logged. */
export function addressRefusal(target: ReplyTarget, account: AccountSenders): string | null {
	const from = digits(target.from);
	if (from === '')
		return 'no number to reply from: the trigger gives the longcode the person texted as unverified.to';
	if (!account.longcodes.has(from))
		// Not echoed: SMS-To is unsigned, anyone replaying a relay can write anything there.
		return 'the number the person texted (unverified.to) is not a numeric sender (longcode) of this account';
	const written = digits(target.writtenTo).replace(/\s+/g, '');
	if (SHORTCODE.test(written)) return `${target.writtenTo} is a shortcode: no reply goes to it`;
	if (target.to === null) return `${target.writtenTo} is not a phone number`;
	if (account.names.has(target.to) || account.longcodes.has(target.to))
		return `${target.to} is one of this account's own senders: no reply goes to it (a loop)`;
	return null;
}

/**
 * Why this logged reply may not go, seen with every reply logged for the person; null when it may.
 * `mine` is already in `rows`, so replies racing it are seen too, and the log's own order decides:
 * every racing run reads the same first reply, whichever run's clock was earlier.
 */
export function logRefusal(
	rows: LoggedMessage[],
	mine: LoggedMessage,
	perHour: number,
): string | null {
	if (earlierAnswer(rows, mine))
		return 'this message was already answered (a replayed relay, or the same turn again)';
	const handedOver = handoverRefusal(rows, mine);
	if (handedOver) return handedOver;
	const count = repliesUpTo(rows, mine, sentReplies(rows)).length;
	if (count > perHour)
		return `the limit of ${perHour} replies per hour to this number is reached (a loop with another bot or an auto-responder, or a drain)`;
	return null;
}
