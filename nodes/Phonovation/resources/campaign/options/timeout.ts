// Request Timeout: how long a request waits for the provider.
import { DEFAULT_TIMEOUT_MS } from '../../../domain/rules';
import { type CampaignOption, isUnset, numberOf, type Read } from './option';

export const timeout = {
	property: {
		displayName: 'Request Timeout',
		type: 'number',
		typeOptions: { minValue: 1000 },
		default: DEFAULT_TIMEOUT_MS,
		description: 'Milliseconds to wait for the provider before the request fails',
	},
	read: (raw: unknown): Read<number> => {
		if (isUnset(raw)) return { value: DEFAULT_TIMEOUT_MS };
		const ms = numberOf(raw);
		return Number.isFinite(ms) && ms > 0
			? { value: ms }
			: { value: DEFAULT_TIMEOUT_MS, problem: 'must be a number of milliseconds above 0' };
	},
	settings: (ms: number) => ({ timeoutMs: ms }),
} satisfies CampaignOption<number>;
