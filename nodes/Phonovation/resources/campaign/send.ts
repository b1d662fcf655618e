// Campaign Send: `POST /api/v2/Campaign` without `sendAt`, so the provider sends at once.
import { campaignOperation } from './campaignOperation';

export const { description, execute, listing } = campaignOperation('send');
