import type { ItemParameters } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/readParameters';

/** A Send planned at a fixed moment in Dublin. */
export const context = {
	scheduled: false,
	now: new Date('2030-01-01T00:00:00Z'),
	zone: 'Europe/Dublin',
};

/** One item's parameters as the node reads them: a valid sender and text, no recipients unless changed. */
export const item = (itemIndex: number, change: Partial<ItemParameters> = {}): ItemParameters => ({
	itemIndex,
	from: 'Phonovation',
	text: 'Hi',
	recipients: '',
	sendAt: undefined,
	options: {},
	unreadable: [],
	...change,
});
