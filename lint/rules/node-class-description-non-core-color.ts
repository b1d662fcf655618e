/** Port of upstream `node-class-description-non-core-color`: not n8n's core color #ff6d5a (description.color / defaults.color). */
import { AST_NODE_TYPES, TSESTree } from '@typescript-eslint/utils';

import { createRule, findClassProperty, findObjectProperty, getStringLiteralValue, isFileType, isNodeTypeClass } from '../utils';

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
		if (!isFileType(context.filename, '.node.ts')) return {};
		return {
			ClassDeclaration(node) {
				if (!isNodeTypeClass(node)) return;
				const description = findClassProperty(node, 'description')?.value;
				if (description?.type !== AST_NODE_TYPES.ObjectExpression) return;
				const colors: TSESTree.Property[] = [];
				const top = findObjectProperty(description, 'color');
				if (top) colors.push(top);
				const defaults = findObjectProperty(description, 'defaults')?.value;
				if (defaults?.type === AST_NODE_TYPES.ObjectExpression) {
					const color = findObjectProperty(defaults, 'color');
					if (color) colors.push(color);
				}
				for (const property of colors) {
					const color = getStringLiteralValue(property.value);
					if (color?.toLowerCase() === N8N_CORE_COLOR) {
						context.report({ node: property.value, messageId: 'coreColor', data: { color } });
					}
				}
			},
		};
	},
});
