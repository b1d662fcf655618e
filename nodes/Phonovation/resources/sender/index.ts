// Sender ID: Get Many, and the Operation picker.
import { resourceFields } from '../../resourceFields';
import * as getAll from './getAll';

export const operations = { getAll };

export const senderDescription = resourceFields('sender', operations, 'getAll');
