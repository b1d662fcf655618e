// The relayKey: a hash of an event and its signed content, so a replayed relay can be dropped.
/** The relayKey an item carries: a hash of its event and signed content, for dropping replays. */

import { createHash } from 'node:crypto';

/**
 * A key for dropping replayed relays: the same event over the same signed text always gives the
 * same key, whatever the unsigned fields (time stamp, NotifyId, SMS-To) say. The caller passes
 * the signed text as the provider's digest sees it, so a replay that only moves the boundary
 * between two signed fields (`From=3538`, `Content=71111111Hi`) keeps the key too.
 */
export function relayKeyOf(event: string, signed: readonly unknown[]): string {
	return createHash('sha256')
		.update(JSON.stringify([event, ...signed]), 'utf8')
		.digest('hex')
		.slice(0, 32);
}
