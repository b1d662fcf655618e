// Quiet Hours: the daily window in which no text goes out; read once, in its one written form.
import { canonicalWindow } from '../../../domain/quietHours';
import { type CampaignOption, canonical, refusal } from './option';

export const quietHours = {
	property: {
		displayName: 'Quiet Hours',
		type: 'string',
		default: '21:00-08:00',
		placeholder: '21:00-08:00',
		description:
			'Daily window (24-hour clock, local time) in which no text goes out: a Send inside it is scheduled for the end of the window, and so is a Schedule whose Send At falls inside it. The output says so in its warnings.',
	},
	read: canonical(canonicalWindow),
	settings: (window: string) => ({ quietWindow: window, quietRefusal: refusal('quietHours') }),
	campaignKey: true,
} satisfies CampaignOption<string>;
