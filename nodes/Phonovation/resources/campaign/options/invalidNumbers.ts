// Invalid Numbers: whether a number that cannot be sent stops the campaign or is skipped and reported.
import { type CampaignOption, choiceOption } from './option';

export const invalidNumbers = {
	...choiceOption(
		{ displayName: 'Invalid Numbers' },
		[
			{
				name: 'Fail',
				value: 'fail',
				description: 'Stop the campaign before sending if any number is invalid',
			},
			{
				name: 'Skip and Report',
				value: 'skip',
				description: 'Send to the valid numbers and list the invalid ones in the output',
			},
		],
		{ fallback: 'skip', whenUnclear: 'fail' },
	),
	settings: (choice: 'fail' | 'skip') => ({ failOnInvalid: choice === 'fail' }),
} satisfies CampaignOption<'fail' | 'skip'>;
