// Exclude Numbers: the suppression list, read into numbers with the item's country code at planning.
import { type CampaignOption, type Read, refusal } from './option';

export const excludeNumbers = {
	property: {
		displayName: 'Exclude Numbers',
		type: 'string',
		default: '',
		description:
			'Suppression list: numbers never to send to, e.g. all items of an Opted-Out node. Takes text (comma, semicolon, line or space separated), numbers, arrays, n8n items and objects (every field named phone, mobile, cell, tel, msisdn or number). Compared after normalisation; a number that lost its leading 0 (7911123456 with Default Country Code 44) excludes every number it may be. An entry it cannot read stops the run (see Unreadable Exclusions).',
	},
	read: (raw: unknown): Read<unknown> => ({ value: raw }),
	settings: (list: unknown) => ({ exclusions: list, exclusionsRefusal: refusal('excludeNumbers') }),
	takesItems: true,
} satisfies CampaignOption<unknown>;
