// Conversation: its four operations, the Operation picker, and what the node takes from it besides.
import { resourceFields } from '../../resourceFields';
import * as sendAndWait from './ask/sendAndWait';
import * as sendAndWaitForDelivery from './ask/sendAndWaitForDelivery';
import * as deliverReceipt from './deliverReceipt';
import * as deliverReply from './deliverReply';

export { outputNames as deliveryOutputNames } from './ask/deliveryOutputs';
export { resume } from './ask/resume';

export const operations = { sendAndWait, deliverReply, sendAndWaitForDelivery, deliverReceipt };

export const conversationDescription = resourceFields('conversation', operations, 'sendAndWait');
