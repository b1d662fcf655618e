// Campaign: Send and Schedule, and the Operation picker.
import { resourceFields } from '../../resourceFields';
import * as schedule from './schedule';
import * as send from './send';

export const operations = { send, schedule };

export const campaignDescription = resourceFields('campaign', operations, 'send', {
	send: [
		'Send',
		'Send a campaign now',
		'Send a campaign',
		'docs/campaigns.md#campaign-send-and-schedule',
	],
	schedule: [
		'Schedule',
		'Schedule a campaign for a later time',
		'Schedule a campaign',
		'docs/campaigns.md#campaign-send-and-schedule',
	],
});
