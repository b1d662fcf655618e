// Campaign Send: `POST /api/v2/Campaign` without `sendAt`, so the provider sends at once.
import { campaignOperation } from './campaignOperation';

export const { listed, description, execute } = campaignOperation('send', {
	name: 'Send',
	description: 'Send a campaign now',
	action: 'Send a campaign',
});
