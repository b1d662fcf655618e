// Campaign Name: the name the provider's reports show, sent in the body and echoed in the output.
import { LIMITS } from '../../../domain/rules';
import { type CampaignOption, limitedText } from './option';

export const campaignName = {
	property: {
		displayName: 'Campaign Name',
		type: 'string',
		default: '',
		description: `Name for the provider's reports, at most ${LIMITS.campaignName} characters (the provider uses "API Broadcast" when empty)`,
	},
	read: limitedText(LIMITS.campaignName),
	campaignKey: true,
	body: true,
	report: true,
} satisfies CampaignOption<string>;
