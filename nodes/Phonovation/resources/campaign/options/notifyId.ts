// Notify ID: each item's own reference for its recipients, echoed in receipts and linked replies.
import { LIMITS } from '../../../domain/rules';
import { type CampaignOption, limitedText } from './option';

export const notifyId = {
	property: {
		displayName: 'Notify ID',
		type: 'string',
		default: '',
		description: `Your reference for this item's recipients (max ${LIMITS.notifyId} characters), echoed in delivery receipts, processing results and linked replies`,
	},
	read: limitedText(LIMITS.notifyId),
	perItem: true,
} satisfies CampaignOption<string>;
