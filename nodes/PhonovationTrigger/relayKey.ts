import { createHash } from 'node:crypto';

/**
 * A key for dropping replayed relays: the same event with the same signed fields always gives
 * the same key, whatever the unsigned fields (time stamp, NotifyId) say. JSON encoding keeps
 * the parts apart (`"ab","c"` and `"a","bc"` differ).
 */
export function relayKeyOf(event: string, signed: readonly unknown[]): string {
	return createHash('sha256').update(JSON.stringify([event, ...signed]), 'utf8').digest('hex').slice(0, 32);
}
