// Service: Check Health, and the Operation picker.
import { resourceFields } from '../../resourceFields';
import * as checkHealth from './checkHealth';

export const operations = { checkHealth };

export const serviceDescription = resourceFields('service', operations, 'checkHealth', {
	checkHealth: [
		'Check Health',
		"Check that the provider's API is up",
		'Check service health',
		'docs/campaigns.md#service-check-health',
	],
});
