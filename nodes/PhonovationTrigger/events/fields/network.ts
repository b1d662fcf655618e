// The sending network (country and carrier) read from a message's SMS-Network code.
/** The sending network (country and carrier) decoded from a message's SMS-Network code. */

/** Mobile country code of Ireland, the only country the service publishes codes for. */
const IRELAND_MCC = '272';

/** MNC 1 is the service operator's own network. */
const IRISH_CARRIERS: Record<number, string> = {
	1: 'Vodafone Ireland',
	2: 'Three Ireland',
	3: 'Eir',
};

interface NetworkInfo {
	mcc: string;
	mnc: string;
	country: string | null;
	carrier: string | null;
	/** Whether the message came over the service operator's own network (272/1). */
	operatorNetwork: boolean;
}

/** Reads `SMS-Network` (`<mcc>/<mnc>`, e.g. `272/1`); empty or absent gives null. */
export function networkOf(value: string | undefined): NetworkInfo | null {
	const text = value?.trim() ?? '';
	if (text === '') return null;
	const [mcc = '', mnc = ''] = text.split('/').map((part) => part.trim());
	const irish = mcc === IRELAND_MCC;
	const carrier = irish && /^\d+$/.test(mnc) ? (IRISH_CARRIERS[Number(mnc)] ?? null) : null;
	return {
		mcc,
		mnc,
		country: irish ? 'Ireland' : null,
		carrier,
		operatorNetwork: irish && /^\d+$/.test(mnc) && Number(mnc) === 1,
	};
}
