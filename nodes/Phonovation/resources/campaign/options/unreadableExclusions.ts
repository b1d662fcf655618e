// Unreadable Exclusions: whether a suppression entry that reads as no number stops the run or only warns.
import { type CampaignOption, choiceOption } from './option';

export const unreadableExclusions = {
	...choiceOption(
		{
			displayName: 'Unreadable Exclusions',
			description: 'What to do when an Exclude Numbers entry cannot be read as a phone number',
		},
		[
			{
				name: 'Fail',
				value: 'fail',
				description:
					'Stop before sending, naming the entry and the item: it may be an opted-out number',
			},
			{
				name: 'Warn',
				value: 'warn',
				description: 'Send, listing the entries in the output warnings; they exclude no one',
			},
		],
		{ fallback: 'fail', whenUnclear: 'fail' },
	),
	// Anything but Warn fails: an entry that excludes no one may be an opted-out number.
	settings: (choice: 'fail' | 'warn') => ({ failOnUnreadable: choice !== 'warn' }),
} satisfies CampaignOption<'fail' | 'warn'>;
