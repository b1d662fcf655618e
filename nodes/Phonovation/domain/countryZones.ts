// The time zone of each single-zone country, to judge Quiet Hours in a recipient's own time.
import { countryCodeLength } from './phoneNumbers';

/**
 * The time zone of countries that have one (by calling code), for judging a recipient's Quiet
 * Hours in their own local time. Countries spanning several zones (+1, +7, +61, +55, +52…) are
 * left out: their recipients are judged in the workflow's zone, with a warning.
 */
const ZONE_BY_CALLING_CODE: Readonly<Record<string, string>> = {
	'353': 'Europe/Dublin',
	'44': 'Europe/London',
	'33': 'Europe/Paris',
	'49': 'Europe/Berlin',
	'39': 'Europe/Rome',
	'31': 'Europe/Amsterdam',
	'32': 'Europe/Brussels',
	'41': 'Europe/Zurich',
	'43': 'Europe/Vienna',
	'45': 'Europe/Copenhagen',
	'46': 'Europe/Stockholm',
	'47': 'Europe/Oslo',
	'48': 'Europe/Warsaw',
	'358': 'Europe/Helsinki',
	'30': 'Europe/Athens',
	'36': 'Europe/Budapest',
	'40': 'Europe/Bucharest',
	'359': 'Europe/Sofia',
	'420': 'Europe/Prague',
	'421': 'Europe/Bratislava',
	'370': 'Europe/Vilnius',
	'371': 'Europe/Riga',
	'372': 'Europe/Tallinn',
	'385': 'Europe/Zagreb',
	'386': 'Europe/Ljubljana',
	'352': 'Europe/Luxembourg',
	'356': 'Europe/Malta',
	'357': 'Asia/Nicosia',
	'354': 'Atlantic/Reykjavik',
	'65': 'Asia/Singapore',
	'852': 'Asia/Hong_Kong',
	'91': 'Asia/Kolkata',
	'81': 'Asia/Tokyo',
	'82': 'Asia/Seoul',
	'27': 'Africa/Johannesburg',
	'971': 'Asia/Dubai',
	'972': 'Asia/Jerusalem',
};

/** The time zone of an international number's country, or undefined when it has none of its own. */
export function zoneOfNumber(msisdn: string): string | undefined {
	return ZONE_BY_CALLING_CODE[msisdn.slice(0, countryCodeLength(msisdn))];
}
