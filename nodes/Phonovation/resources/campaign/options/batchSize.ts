// Batch Size: the most recipients one request carries; a larger campaign is split.
import { LIMITS } from '../../../domain/rules';
import { type CampaignOption, wholeNumberOption } from './option';

export const batchSize = {
	...wholeNumberOption(
		{
			displayName: 'Batch Size',
			description: `Most recipients per request; larger campaigns are split. The provider accepts at most ${LIMITS.recipientsPerRequest}.`,
		},
		{ min: 1, max: LIMITS.recipientsPerRequest, fallback: LIMITS.recipientsPerRequest },
	),
	settings: (size: number) => ({ perRequest: size }),
} satisfies CampaignOption<number>;
