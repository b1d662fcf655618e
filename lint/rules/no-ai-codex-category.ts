/**
 * Port of upstream `no-ai-codex-category`: the "AI" codex category is reserved for nodes built with
 * @n8n/ai-node-sdk (checked in .node.json codex files and inline `codex` objects). Autofix removes it.
 */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { createCodexObjectVisitor, removeListItem } from '../codex';
import { createRule, findObjectProperty } from '../utils';

export const noAiCodexCategory = createRule({
	name: 'no-ai-codex-category',
	meta: {
		type: 'problem',
		docs: {
			description:
				'Disallow the reserved "AI" codex category in community nodes that do not import the AI Node SDK',
		},
		messages: {
			aiCategoryNotAllowed:
				'The "AI" codex category is reserved for built-in n8n AI nodes and nodes built with @n8n/ai-node-sdk. Remove "AI" from codex.categories, or import from @n8n/ai-node-sdk if this node is meant to be an AI node.',
		},
		fixable: 'code',
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createCodexObjectVisitor(context, (codex) => {
			const categories = findObjectProperty(codex, 'categories')?.value;
			if (categories?.type !== AST_NODE_TYPES.ArrayExpression) return;
			const present = categories.elements.filter((element) => element !== null);
			for (const element of present) {
				if (element.type === AST_NODE_TYPES.Literal && element.value === 'AI') {
					context.report({
						node: element,
						messageId: 'aiCategoryNotAllowed',
						fix: (fixer) => removeListItem(fixer, context.sourceCode, present, element),
					});
				}
			}
		});
	},
});
