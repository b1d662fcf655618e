/**
 * Port of upstream `no-logic-or-flow-nodes`: a .node.json codex must not put the node in the
 * "Logic" or "Flow" category or subcategory (reserved for n8n's core nodes).
 */
import { AST_NODE_TYPES, TSESTree } from '@typescript-eslint/utils';

import { createRule, findJsonProperty, getTopLevelObjectInJson } from '../utils';

const FORBIDDEN = new Set(['Logic', 'Flow']);

export const noLogicOrFlowNodes = createRule({
	name: 'no-logic-or-flow-nodes',
	meta: {
		type: 'problem',
		docs: { description: 'Reject Logic and Flow community nodes' },
		messages: { logicOrFlowNode: 'Logic and Flow nodes are not allowed' },
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		if (!context.filename.endsWith('.node.json')) return {};
		const check = (array: TSESTree.ArrayExpression) => {
			for (const element of array.elements) {
				if (
					element?.type === AST_NODE_TYPES.Literal &&
					typeof element.value === 'string' &&
					FORBIDDEN.has(element.value)
				) {
					context.report({ node: element, messageId: 'logicOrFlowNode' });
				}
			}
		};
		return {
			ObjectExpression(node) {
				const root = getTopLevelObjectInJson(node);
				if (!root) return;
				const categories = findJsonProperty(root, 'categories')?.value;
				if (categories?.type === AST_NODE_TYPES.ArrayExpression) check(categories);
				const subcategories = findJsonProperty(root, 'subcategories')?.value;
				if (subcategories?.type !== AST_NODE_TYPES.ObjectExpression) return;
				for (const property of subcategories.properties) {
					if (
						property.type === AST_NODE_TYPES.Property &&
						property.value.type === AST_NODE_TYPES.ArrayExpression
					) {
						check(property.value);
					}
				}
			},
		};
	},
});
