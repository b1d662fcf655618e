// Exclude Numbers: the suppression list, read into numbers with the item's country code at planning.
import { excludeNumbersField } from '../../../numberFields';
import { type CampaignOption, type Read, refusal } from './option';

export const excludeNumbers = {
	property: excludeNumbersField(
		'An entry it cannot read stops the run (see Unreadable Exclusions).',
	),
	read: (raw: unknown): Read<unknown> => ({ value: raw }),
	settings: (list: unknown) => ({ exclusions: list, exclusionsRefusal: refusal('excludeNumbers') }),
	takesItems: true,
} satisfies CampaignOption<unknown>;
