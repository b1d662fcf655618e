// Quiet Hours Time Zone: the zone Quiet Hours are judged in; empty, each recipient's own.
import { canonicalZone } from '../../../domain/quietHours';
import { type CampaignOption, canonical } from './option';

export const quietHoursTimeZone = {
	property: {
		displayName: 'Quiet Hours Time Zone',
		type: 'string',
		default: '',
		placeholder: 'Europe/Dublin',
		description:
			"Time zone of the Quiet Hours, e.g. Europe/Dublin. Empty: each recipient's own (their country's), the workflow's where a country has several.",
	},
	read: canonical(canonicalZone),
	settings: (zone: string) => ({ quietZone: zone }),
	// A zone of Quiet Hours that are off makes no difference.
	campaignKey: (settings) => (settings.quietWindow === '' ? '' : settings.quietZone),
} satisfies CampaignOption<string>;
