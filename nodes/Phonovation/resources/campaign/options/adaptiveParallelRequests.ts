// Adaptive Parallel Requests: whether the run finds the provider's pace or keeps to Parallel Requests.
import { type CampaignOption, yesNo } from './option';

export const adaptiveParallelRequests = {
	property: {
		displayName: 'Adaptive Parallel Requests',
		type: 'boolean',
		default: true,
		description:
			"Whether to start with a few requests at once and raise the number while the provider answers fast, lowering it when answers slow down or an HTTP 429 comes (which also pauses every request for the provider's Retry-After). Off: Parallel Requests at once, halved after an HTTP 429 and climbing back. Read from the first item.",
	},
	read: yesNo(true),
	settings: (on: boolean) => ({ adaptivePace: on }),
	perRun: true,
} satisfies CampaignOption<boolean>;
