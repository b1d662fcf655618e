/**
 * A local stand-in for Phonovation's InteractSMS service, for tests, benchmarks and the demo:
 * a real HTTP server on 127.0.0.1 serving the token, campaign, sender-list, health and legacy
 * endpoints, plus test-only controls under /_sim/. Never shipped (lives under test/).
 */
export { DEFAULT_CLI_PORT, DEFAULT_CONFIG, parseSenders } from './config';
export type { CampaignLimit, Sender, SimulatorConfig } from './config';
export type { Fault, PendingFault } from './faults';
export { LEGACY_CODES } from './legacy';
export { CHAT_MODEL_PHONE } from './chatModel';
export { checkMsisdn } from './msisdn';
export { LIMITS } from './campaign';
export type {
	FieldCasing,
	InboundOptions,
	OptOutOptions,
	ProcessingResultOptions,
	ProcessingStatus,
	ReceiptOptions,
} from './relays';
export { DEFAULT_REPLY_FROM, OPT_OUT_SHORTCODE } from './relays';
export type { OutboundLink } from './links';
export { inboundSignature, md5Hex, receiptSignature } from './signatures';
export { simulatorCredentialData } from './credential';
export { peakOverlap, startSimulator } from './simulator';
export type {
	DeliveryResult,
	InboundResult,
	RecordedCampaign,
	RecordedLegacySend,
	RecordedRequest,
	RelayResult,
	Simulator,
	TimelineEvent,
	StartOptions,
} from './simulator';
