/**
 * The simulator's own number rules (independent of the node): digits only, 8 to 20 of them,
 * international form or Irish national form `0…`; Irish numbers must be mobiles (`3538…`/`08…`),
 * because landlines cannot take SMS.
 */
export type MsisdnCheck = { ok: true; international: string } | { ok: false };

export const MIN_DIGITS = 8;
export const MAX_DIGITS = 20;

export function checkMsisdn(msisdn: string): MsisdnCheck {
	if (!/^\d+$/.test(msisdn) || msisdn.length < MIN_DIGITS || msisdn.length > MAX_DIGITS) {
		return { ok: false };
	}
	const international = msisdn.startsWith('0') ? `353${msisdn.slice(1)}` : msisdn;
	if (international.startsWith('353') && !international.startsWith('3538')) return { ok: false };
	return { ok: true, international };
}

export function isIrish(international: string): boolean {
	return international.startsWith('353');
}
