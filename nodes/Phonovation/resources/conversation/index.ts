// Conversation: its four operations, the Operation picker, and what the node takes from it besides.
import { resourceFields } from '../../resourceFields';
import * as sendAndWait from './ask/sendAndWait';
import * as sendAndWaitForDelivery from './ask/sendAndWaitForDelivery';
import * as deliverReceipt from './deliverReceipt';
import * as deliverReply from './deliverReply';

export { outputNames as deliveryOutputNames } from './ask/deliveryOutputs';
export { resume } from './ask/resume';

export const operations = { sendAndWait, deliverReply, sendAndWaitForDelivery, deliverReceipt };

export const conversationDescription = resourceFields('conversation', operations, 'sendAndWait', {
	deliverReceipt: [
		'Deliver Receipt',
		'Hand a verified delivery receipt to the run waiting for it',
		'Deliver a receipt to a waiting run',
	],
	deliverReply: [
		'Deliver Reply',
		'Hand a verified reply to the run that asked the question',
		'Deliver a reply to a waiting run',
	],
	sendAndWaitForDelivery: [
		'Send and Wait for Delivery',
		'Text one number and pause until its delivery receipt: go on at Delivered, Failed or No Receipt',
		'Send a text and wait for its delivery',
	],
	sendAndWait: [
		'Send and Wait for Reply',
		'Text a question and pause until the answer comes back',
		'Send a text and wait for the reply',
	],
});
