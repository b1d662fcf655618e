// Campaign Schedule: `POST /api/v2/Campaign` with `sendAt` in UTC (`yyyy-MM-ddTHH:mmZ`).
import { campaignOperation } from './campaignOperation';

export const { listed, description, execute } = campaignOperation('schedule', {
	name: 'Schedule',
	description: 'Schedule a campaign for a later time',
	action: 'Schedule a campaign',
});
