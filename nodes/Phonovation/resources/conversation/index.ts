// Conversation: its seven operations, the Operation picker, and what the node takes from it besides.
import { resourceFields } from '../../resourceFields';
import * as sendAndWait from './ask/sendAndWait';
import * as sendAndWaitForDelivery from './ask/sendAndWaitForDelivery';
import * as collectBurst from './assistant/collectBurst';
import * as handOver from './assistant/handOver';
import * as reply from './assistant/reply';
import * as deliverReceipt from './deliverReceipt';
import * as deliverReply from './deliverReply';

export { outputNames as deliveryOutputNames } from './ask/deliveryOutputs';
export { resume } from './ask/resume';

export { outputNames as burstOutputNames } from './assistant/collectBurst';

export const operations = {
	sendAndWait,
	deliverReply,
	sendAndWaitForDelivery,
	deliverReceipt,
	collectBurst,
	reply,
	handOver,
};

export const conversationDescription = resourceFields('conversation', operations, 'sendAndWait', {
	collectBurst: [
		'Collect Burst',
		'Wait until a person stops texting, then put out their texts as one turn (for an AI assistant)',
		'Collect a burst of texts into one turn',
		'docs/conversations.md#sms-assistant-before-going-live',
	],
	reply: [
		'Reply',
		'Text a person back from the longcode they texted, with limits against loops and drains',
		'Reply to a text',
		'docs/conversations.md#sms-assistant-before-going-live',
	],
	handOver: [
		'Hand Over',
		'Hand a conversation to a person (the assistant stays quiet) or back to the assistant',
		'Hand a conversation over or back',
		'docs/conversations.md#hand-over-to-a-person',
	],
	deliverReceipt: [
		'Deliver Receipt',
		'Hand a verified delivery receipt to the run waiting for it',
		'Deliver a receipt to a waiting run',
		'docs/conversations.md#deliver-receipt',
	],
	deliverReply: [
		'Deliver Reply',
		'Hand a verified reply to the run that asked the question',
		'Deliver a reply to a waiting run',
		'docs/conversations.md#send-and-wait-for-reply',
	],
	sendAndWaitForDelivery: [
		'Send and Wait for Delivery',
		'Text one number and pause until its delivery receipt: go on at Delivered, Failed or No Receipt',
		'Send a text and wait for its delivery',
		'docs/conversations.md#send-and-wait-for-delivery',
	],
	sendAndWait: [
		'Send and Wait for Reply',
		'Text a question and pause until the answer comes back',
		'Send a text and wait for the reply',
		'docs/conversations.md#send-and-wait-for-reply',
	],
});
