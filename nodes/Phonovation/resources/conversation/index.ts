// Conversation: its eight operations, the Operation picker, and what the node takes from it besides.
import { resourceFields } from '../../resourceFields';
import * as sendAndWait from './ask/sendAndWait';
import * as sendAndWaitForDelivery from './ask/sendAndWaitForDelivery';
import * as collectBurst from './assistant/collectBurst';
import * as handOver from './assistant/handOver';
import * as reply from './assistant/reply';
import * as deliverReceipt from './deliverReceipt';
import * as deliverReply from './deliverReply';
import * as verifyRelay from './verifyRelay';

export { outputNames as deliveryOutputNames } from './ask/deliveryOutputs';
export { resume } from './ask/resume';

export { outputNames as burstOutputNames } from './assistant/collectBurst';
export { outputNames as relayOutputNames } from './verifyRelay';

export const operations = {
	sendAndWait,
	deliverReply,
	sendAndWaitForDelivery,
	deliverReceipt,
	collectBurst,
	reply,
	handOver,
	verifyRelay,
};

export const conversationDescription = resourceFields('conversation', operations, 'sendAndWait');
