// Message Type: whether the text is marketing, which must offer a way to opt out.
import { type CampaignOption, choiceOption } from './option';

export const messageType = {
	...choiceOption(
		{
			displayName: 'Message Type',
			description:
				'Whether the text is direct marketing, which Irish and EU rules require to offer a way to opt out',
		},
		[
			{
				name: 'Marketing',
				value: 'marketing',
				description: 'Offers, news, promotions: the text must tell recipients how to opt out',
			},
			{
				name: 'Transactional',
				value: 'transactional',
				description:
					'Reminders, confirmations, alerts the recipient expects: no opt-out wording needed',
			},
		],
		{ fallback: 'marketing', whenUnclear: 'marketing' },
	),
	settings: (type: 'marketing' | 'transactional') => ({ marketing: type !== 'transactional' }),
} satisfies CampaignOption<'marketing' | 'transactional'>;
