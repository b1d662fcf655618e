// Campaign: Send and Schedule, and the Operation picker.
import { resourceFields } from '../../resourceFields';
import * as schedule from './schedule';
import * as send from './send';

export const operations = { send, schedule };

export const campaignDescription = resourceFields('campaign', operations, 'send');
