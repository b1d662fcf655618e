// Max Parts per Text: the most billed parts a text may be sent as.
import { type CampaignOption, refusal, wholeNumber } from './option';

/** 2,000 characters (the provider's limit) in UCS-2 make 30 parts: no text needs more. */
const MAX_PARTS = 30;

export const maxParts = {
	property: {
		displayName: 'Max Parts per Text',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_PARTS },
		default: 0,
		description:
			'Most parts (each billed) a text may be sent as: 160 characters make one part, or 70 once a character outside the GSM alphabet (an emoji, á, curly quotes) is in it, and fewer per part once split. An item whose text needs more is not sent, before any credit is spent. 0: no limit.',
	},
	read: wholeNumber(0, 0, MAX_PARTS),
	settings: (most: number) => ({ partsLimit: most, partsRefusal: refusal('maxParts') }),
} satisfies CampaignOption<number>;
