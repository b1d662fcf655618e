// Default Country Code: the calling code given to numbers written in national form.
import { parseCountryCode } from '../../../domain/rules';
import { defaultCountryCodeField } from '../../../numberFields';
import type { CampaignOption, Read } from './option';

export const defaultCountryCode = {
	property: defaultCountryCodeField(),
	read: (raw: unknown): Read<string | null> => {
		const country = parseCountryCode(raw);
		return country.ok ? { value: country.code } : { value: null, problem: country.problem };
	},
	// None when it could not be read: the item is set apart by that problem and reads no number.
	settings: (code: string | null) => ({ countryCode: code ?? '' }),
} satisfies CampaignOption<string | null>;
