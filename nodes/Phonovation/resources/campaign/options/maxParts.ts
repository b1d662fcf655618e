// Max Parts per Text: the most billed parts a text may be sent as.
import { analyseText } from '../../../domain/gsmSegments';
import { type CampaignOption, refusal, wholeNumberOption } from './option';

/** 2,000 characters (the provider's limit) in UCS-2 make 30 parts: no text needs more. */
const MAX_PARTS = 30;

export const maxParts = {
	...wholeNumberOption(
		{
			displayName: 'Max Parts per Text',
			description:
				'Most parts (each billed) a text may be sent as: 160 characters make one part, or 70 once a character outside the GSM alphabet (an emoji, á, curly quotes) is in it, and fewer per part once split. An item whose text needs more is not sent, before any credit is spent. 0: no limit.',
		},
		{ min: 0, max: MAX_PARTS, fallback: 0 },
	),
	checkText: ({ text, added }, most: number) => {
		if (most === 0) return undefined;
		const parts = analyseText(text).segments;
		if (parts <= most) return undefined;
		const footer = added ? ' with the Opt-Out Text' : '';
		const message = `Max Parts per Text is ${most}, and the text${footer} is ${parts} parts long`;
		return { violation: refusal('maxParts')(message) };
	},
} satisfies CampaignOption<number>;
