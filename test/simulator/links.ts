import { checkMsisdn } from './msisdn';

/**
 * Reply linking, as the provider does it (docs/provider-api.md#notify-id, docs/provider-api.md#inbound-message):
 * a reply carries in `SMS-NotifyId` the notifyId of the last message that went out to its
 * `SMS-From`, and is addressed (`SMS-To`) to the number that message came from.
 */
export interface OutboundLink {
	/** Where the message was recorded: `campaigns[id - 1]` or `legacySends[id - 1]`. */
	outbound: 'campaign' | 'legacy';
	id: number;
	/** The handset number, international form. */
	msisdn: string;
	/** The Sender ID the message went out under. */
	sender: string;
	/** The message's notifyId; null when it had none (a reply to it then carries an empty one). */
	notifyId: string | null;
}

/** The last message out to each number, in the order they went out. */
export class OutboundLinks {
	private readonly last = new Map<string, OutboundLink>();

	/** A message went out now (sent at once, or a scheduled one delivered). */
	record(link: OutboundLink): void {
		const key = international(link.msisdn);
		if (key !== undefined) this.last.set(key, { ...link, msisdn: key });
	}

	/** The last message out to `from` (`08…` and `3538…` are one number), if any. */
	find(from: string): OutboundLink | undefined {
		const key = international(from);
		return key === undefined ? undefined : this.last.get(key);
	}

	clear(): void {
		this.last.clear();
	}
}

function international(msisdn: string): string | undefined {
	const check = checkMsisdn(msisdn.trim());
	return check.ok ? check.international : undefined;
}

/**
 * A reply goes to the number the message came from: a numeric sender (a longcode) is that number;
 * an alphanumeric Sender ID cannot be replied to, so the reply keeps the default longcode.
 */
export function replyAddress(sender: string): string | undefined {
	return /^\d+$/.test(sender) ? sender : undefined;
}
