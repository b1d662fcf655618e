// Missing Opt-Out Wording: whether a marketing text without opt-out wording stops or only warns.
import { type CampaignOption, choiceOption, refusal } from './option';

export const missingOptOut = {
	...choiceOption(
		{
			displayName: 'Missing Opt-Out Wording',
			description:
				'What to do with a Marketing text that has no STOP, OPTOUT or 50123 wording and no Opt-Out Text',
		},
		[
			{ name: 'Fail', value: 'fail', description: 'Stop before sending, naming the item' },
			{ name: 'Warn', value: 'warn', description: 'Send, with a warning in the output' },
		],
		{ fallback: 'warn', whenUnclear: 'fail' },
	),
	settings: (choice: 'fail' | 'warn') => ({
		optOutWordingRequired: choice === 'fail',
		optOutWordingRefusal: refusal('missingOptOut'),
	}),
} satisfies CampaignOption<'fail' | 'warn'>;
