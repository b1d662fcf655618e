// The Options collection a node's fields end with: the same label and placeholder on both nodes.
import type { INodeProperties } from 'n8n-workflow';

/** The `options` collection holding these options (each node lists them sorted by name). */
export const optionsCollection = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options,
});
