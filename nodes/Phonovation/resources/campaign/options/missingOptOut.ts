// Missing Opt-Out Wording: whether a marketing text without opt-out wording stops or only warns.
import { offersOptOut } from '../../../../shared/optOutWords';
import { type CampaignOption, choiceOption, refusal } from './option';

const MISSING_OPT_OUT =
	'Message Type is Marketing but the text offers no way to opt out (no STOP, OPTOUT or 50123 wording): Irish and EU rules ask for one in every marketing text. Add the Opt-Out Text option, or set Message Type to Transactional if this text is not marketing';

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
	// The text as sent, its Opt-Out Text included: marketing must offer a way to opt out.
	checkText: ({ text }, choice: 'fail' | 'warn', { marketing }) => {
		if (marketing !== true || text.trim() === '' || offersOptOut(text)) return undefined;
		return choice === 'fail'
			? { violation: refusal('missingOptOut')(MISSING_OPT_OUT) }
			: { warning: MISSING_OPT_OUT };
	},
} satisfies CampaignOption<'fail' | 'warn'>;
