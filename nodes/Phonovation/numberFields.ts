// The two fields of every operation that texts numbers, defined once: Default Country Code (how a
// national number is read) and Exclude Numbers (whom never to text). Each operation says in the
// description what becomes of an excluded number there.
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_COUNTRY_CODE } from './domain/rules';

export const COUNTRY_CODE_DESCRIPTION =
	"A country's calling code (353 = Ireland, 44 = UK; +44 and 0044 also work) given to numbers written in national form: with their leading 0, or as written at home where there is none (Spain, Italy, the US). Other numbers must carry their country code; digits without + or 00 that could also be the country's number without its 0 (7911123456 with 44: +7… or 07911…) are invalid, and the reason names both readings. A code no country has (such as 35) is an error.";

export const defaultCountryCodeField = (
	description = COUNTRY_CODE_DESCRIPTION,
): INodeProperties => ({
	displayName: 'Default Country Code',
	name: 'defaultCountryCode',
	type: 'string',
	default: DEFAULT_COUNTRY_CODE,
	description,
});

/** The forms a list takes, as every Exclude Numbers reads them (domain/exclusions.ts). */
export const EXCLUDE_NUMBERS_FORMS =
	'text (comma, semicolon, line or space separated), numbers, arrays, n8n items and objects (every field named phone, mobile, cell, tel, msisdn or number)';

/** `excluded`: what becomes of an excluded number in this operation, as a sentence. */
export const excludeNumbersField = (excluded: string): INodeProperties => ({
	displayName: 'Exclude Numbers',
	name: 'excludeNumbers',
	type: 'string',
	default: '',
	description: `Suppression list: numbers never to text, e.g. all items of an Opted-Out node. Takes ${EXCLUDE_NUMBERS_FORMS}. Compared after normalisation; a number that lost its leading 0 (7911123456 with Default Country Code 44) excludes every number it may be. ${excluded}`,
});
