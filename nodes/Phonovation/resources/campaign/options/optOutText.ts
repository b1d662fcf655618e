// Opt-Out Text: the footer added to every text unless it already ends with it.
import { SUGGESTED_OPT_OUT_TEXT, withOptOutText } from '../../../../shared/optOutWords';
import { asText } from '../../../../shared/values';
import { LIMITS } from '../../../domain/rules';
import type { CampaignOption, Read } from './option';

export const optOutText = {
	property: {
		displayName: 'Opt-Out Text',
		type: 'string',
		default: SUGGESTED_OPT_OUT_TEXT,
		description: `Added on a line of its own at the end of the text, unless the text already ends with it. Counts toward the ${LIMITS.text}-character limit and the parts billed.`,
	},
	read: (raw: unknown): Read<string> => ({ value: asText(raw) }),
	shapeText: (text: string, footer: string) => withOptOutText(text, footer),
} satisfies CampaignOption<string>;
