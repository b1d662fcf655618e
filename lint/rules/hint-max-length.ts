/** Port of upstream `hint-max-length`: a `hint` anywhere in the node description is at most 120 characters. */
import { AST_NODE_TYPES, TSESTree } from '@typescript-eslint/utils';

import {
	createNodeDescriptionVisitor,
	createRule,
	getPropertyKeyName,
	getStringLiteralValue,
} from '../utils';

const MAX_HINT_LENGTH = 120;

export const hintMaxLength = createRule({
	name: 'hint-max-length',
	meta: {
		type: 'suggestion',
		docs: { description: 'Limit the length of a node property "hint"' },
		messages: {
			hintTooLong:
				'The "hint" is {{ length }} characters long, over the limit of {{ max }}. A hint is a short inline nudge. Move the longer text to "description", which renders as the tooltip.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		const visit = (node: TSESTree.Node): void => {
			if (node.type === AST_NODE_TYPES.ObjectExpression) {
				for (const property of node.properties) {
					if (property.type !== AST_NODE_TYPES.Property) continue;
					if (getPropertyKeyName(property) === 'hint') {
						const hint = getStringLiteralValue(property.value);
						if (hint !== null && hint.length > MAX_HINT_LENGTH) {
							context.report({
								node: property.value,
								messageId: 'hintTooLong',
								data: { length: hint.length, max: MAX_HINT_LENGTH },
							});
						}
					}
					visit(property.value);
				}
			} else if (node.type === AST_NODE_TYPES.ArrayExpression) {
				for (const element of node.elements) if (element) visit(element);
			}
		};
		return createNodeDescriptionVisitor(context, 'resolved', visit);
	},
});
