/**
 * Port of upstream `node-class-description-non-core-color`: not n8n's core color #ff6d5a (description.color /
 * defaults.color).
 */
import { TSESTree } from '@typescript-eslint/utils';

import {
	createNodeDescriptionVisitor,
	createRule,
	findObjectLiteralProperty,
	findObjectProperty,
	getStringLiteralValue,
} from '../utils';

const N8N_CORE_COLOR = '#ff6d5a';

export const nodeClassDescriptionNonCoreColor = createRule({
	name: 'node-class-description-non-core-color',
	meta: {
		type: 'suggestion',
		docs: { description: 'Node class description must not use the n8n core color.' },
		messages: {
			coreColor:
				'Node class description uses the n8n core color `{{ color }}`. Use a custom color to distinguish your community node from built-in nodes.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createNodeDescriptionVisitor(context, 'field', (description) => {
			const defaults = findObjectLiteralProperty(description, 'defaults');
			const colors = [
				findObjectProperty(description, 'color'),
				defaults && findObjectProperty(defaults, 'color'),
			];
			for (const property of colors.filter((p): p is TSESTree.Property => p !== null)) {
				const color = getStringLiteralValue(property.value);
				if (color?.toLowerCase() === N8N_CORE_COLOR) {
					context.report({ node: property.value, messageId: 'coreColor', data: { color } });
				}
			}
		});
	},
});
