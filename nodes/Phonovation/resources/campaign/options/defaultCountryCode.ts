// Default Country Code: the calling code given to numbers written in national form.
import { DEFAULT_COUNTRY_CODE, parseCountryCode } from '../../../domain/rules';
import type { CampaignOption, Read } from './option';

export const defaultCountryCode = {
	property: {
		displayName: 'Default Country Code',
		type: 'string',
		default: DEFAULT_COUNTRY_CODE,
		description:
			"A country's calling code (353 = Ireland, 44 = UK; +44 and 0044 also work) given to numbers written in national form: with their leading 0, or as written at home where there is none (Spain, Italy, the US). Other numbers must carry their country code; digits without + or 00 that could also be the country's number without its 0 (7911123456 with 44: +7… or 07911…) are invalid, and the reason names both readings. A code no country has (such as 35) is an error.",
	},
	read: (raw: unknown): Read<string | null> => {
		const country = parseCountryCode(raw);
		return country.ok ? { value: country.code } : { value: null, problem: country.problem };
	},
	// None when it could not be read: the item is set apart by that problem and reads no number.
	settings: (code: string | null) => ({ countryCode: code ?? '' }),
} satisfies CampaignOption<string | null>;
