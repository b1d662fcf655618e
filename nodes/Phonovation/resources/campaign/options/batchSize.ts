// Batch Size: the most recipients one request carries; a larger campaign is split.
import { LIMITS } from '../../../domain/rules';
import { type CampaignOption, wholeNumber } from './option';

const MAX_BATCH_SIZE = LIMITS.recipientsPerRequest;

export const batchSize = {
	property: {
		displayName: 'Batch Size',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
		default: MAX_BATCH_SIZE,
		description: `Most recipients per request; larger campaigns are split. The provider accepts at most ${LIMITS.recipientsPerRequest}.`,
	},
	read: wholeNumber(MAX_BATCH_SIZE, 1, MAX_BATCH_SIZE),
	settings: (size: number) => ({ perRequest: size }),
} satisfies CampaignOption<number>;
