import type { TextRequest } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/textRequest';

/** A Send planned at a fixed moment in Dublin. */
export const context = {
	scheduled: false,
	now: new Date('2030-01-01T00:00:00Z'),
	zone: 'Europe/Dublin',
};

/** One item's text request as Send reads it: a valid sender and text, no recipients unless changed. */
export const item = (itemIndex: number, change: Partial<TextRequest> = {}): TextRequest => ({
	itemIndex,
	from: 'Phonovation',
	text: 'Hi',
	recipients: '',
	sendAt: undefined,
	options: {},
	unreadable: [],
	...change,
});
