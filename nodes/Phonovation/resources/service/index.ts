// Service: Check Health, and the Operation picker.
import { resourceFields } from '../../resourceFields';
import * as checkHealth from './checkHealth';

export const operations = { checkHealth };

export const serviceDescription = resourceFields('service', operations, 'checkHealth');
