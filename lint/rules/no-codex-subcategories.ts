/**
 * Port of upstream `no-codex-subcategories`: `codex.subcategories` only means something to nodes
 * built with @n8n/ai-node-sdk; elsewhere it is reported (autofix removes it).
 */
import { createCodexObjectVisitor, removeListItem } from '../codex';
import { createRule, findObjectProperty } from '../utils';

export const noCodexSubcategories = createRule({
	name: 'no-codex-subcategories',
	meta: {
		type: 'problem',
		docs: {
			description:
				'Disallow the codex.subcategories field in community nodes that do not import the AI Node SDK',
		},
		messages: {
			subcategoriesNotAllowed:
				'codex.subcategories is not allowed unless the node is built with @n8n/ai-node-sdk: an unrecognized value silently misclassifies the node in the node panel. Remove codex.subcategories, or import from @n8n/ai-node-sdk if this node needs AI subcategory detection.',
		},
		fixable: 'code',
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createCodexObjectVisitor(context, (codex) => {
			const subcategories = findObjectProperty(codex, 'subcategories');
			if (!subcategories) return;
			context.report({
				node: subcategories,
				messageId: 'subcategoriesNotAllowed',
				fix: (fixer) => removeListItem(fixer, context.sourceCode, codex.properties, subcategories),
			});
		});
	},
});
