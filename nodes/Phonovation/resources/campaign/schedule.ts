// Campaign Schedule: `POST /api/v2/Campaign` with `sendAt` in UTC (`yyyy-MM-ddTHH:mmZ`).
import { campaignOperation } from './campaignOperation';

export const { description, execute, listing } = campaignOperation('schedule');
