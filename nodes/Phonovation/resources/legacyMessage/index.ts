// Legacy Message: Send through the legacy API, and the Operation picker.
import { resourceFields } from '../../resourceFields';
import * as send from './send';

export const operations = { send };

export const legacyMessageDescription = resourceFields('legacyMessage', operations, 'send');
