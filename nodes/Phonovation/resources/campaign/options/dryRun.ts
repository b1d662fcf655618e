// Dry Run: check everything and show the request bodies, posting nothing.
import { type CampaignOption, yesNo } from './option';

export const dryRun = {
	property: {
		displayName: 'Dry Run',
		type: 'boolean',
		default: false,
		description:
			'Whether to check everything and show the exact request body without sending anything (no credits used)',
	},
	// Never false by default: a dry run taken for a real one spends credits.
	read: yesNo(false, true),
	settings: (on: boolean) => ({ rehearsal: on }),
	campaignKey: true,
	itemField: true,
} satisfies CampaignOption<boolean>;
