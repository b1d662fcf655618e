// Sender ID: Get Many, and the Operation picker.
import { resourceFields } from '../../resourceFields';
import * as getAll from './getAll';

export const operations = { getAll };

export const senderDescription = resourceFields('sender', operations, 'getAll', {
	getAll: [
		'Get Many',
		"List the account's approved sender IDs",
		'Get many senders',
		'docs/campaigns.md',
	],
});
