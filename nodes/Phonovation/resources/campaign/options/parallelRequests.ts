// Parallel Requests: the most campaign requests in flight at once in a run.
import { DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS } from '../../../domain/rules';
import { type CampaignOption, wholeNumberOption } from './option';

export const parallelRequests = {
	...wholeNumberOption(
		{
			displayName: 'Parallel Requests',
			description:
				"Most campaign requests in flight at once, for runs with many campaigns (e.g. one personalised text per item). With Adaptive Parallel Requests on, the node starts lower and finds the provider's pace below this. Each campaign's batches still go out in order. Read from the first item.",
		},
		{ min: 1, max: MAX_PARALLEL_REQUESTS, fallback: DEFAULT_PARALLEL_REQUESTS },
	),
	settings: (most: number) => ({ mostInFlight: most }),
	perRun: true,
} satisfies CampaignOption<number>;
