/**
 * Port of upstream `valid-node-categories`: codex `categories` (in a .node.json or an inline
 * description.codex) must be a non-empty array of the community categories; "AI" needs
 * `subcategories.AI` with known AI subcategories and vice versa.
 */
import { AST_NODE_TYPES, TSESTree } from '@typescript-eslint/utils';

import {
	createNodeDescriptionVisitor,
	createRule,
	findObjectLiteralProperty,
	findObjectProperty,
	getTopLevelObjectInJson,
} from '../utils';

const CATEGORIES = new Set([
	'Data & Storage',
	'Finance & Accounting',
	'Marketing & Content',
	'Productivity',
	'Miscellaneous',
	'Sales',
	'Development',
	'Analytics',
	'Communication',
	'Utility',
	'AI',
]);

const AI_SUBCATEGORIES = new Set([
	'Agents',
	'Chains',
	'Language Models',
	'Memory',
	'Output Parsers',
	'Tools',
	'Vector Stores',
	'Retrievers',
	'Embeddings',
	'Document Loaders',
	'Text Splitters',
	'Other Tools',
	'Root Nodes',
	'Model Context Protocol',
	'Human in the Loop',
	'Miscellaneous',
	'Rerankers',
	'Evaluation',
]);

export const validNodeCategories = createRule({
	name: 'valid-node-categories',
	meta: {
		type: 'problem',
		docs: { description: 'Require supported community node codex categories and AI subcategories' },
		messages: {
			invalidCategories: '"categories" must be a non-empty array of community node categories.',
			invalidCategoryType: 'Each category must be a string from the community node category list.',
			invalidCategory:
				'"{{ category }}" is not a supported community node category. See https://docs.n8n.io/connect/create-nodes/build-your-node/reference/codex-files/#node-categories for the allowed values.',
			marketingCategory: '"Marketing" is not a supported category. Use "Marketing & Content".',
			missingAiSubcategories: 'The "AI" category requires a non-empty subcategories.AI array.',
			missingAiCategory: 'subcategories.AI requires "AI" in categories.',
			invalidSubcategories: 'subcategories must be an object with an AI category.',
			invalidAiSubcategoryType: 'Each AI subcategory must be a supported string value.',
			invalidAiSubcategory: '"{{ subcategory }}" is not a supported AI subcategory.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		const isJson = context.filename.endsWith('.node.json');
		if (!isJson && !context.filename.endsWith('.node.ts')) return {};

		function checkCodex(codex: TSESTree.ObjectExpression): void {
			const categories = findObjectProperty(codex, 'categories');
			const subcategories = findObjectProperty(codex, 'subcategories');
			if (!categories && !subcategories) return;

			let hasAi = false;
			if (categories) {
				if (
					categories.value.type !== AST_NODE_TYPES.ArrayExpression ||
					categories.value.elements.length === 0
				) {
					context.report({ node: categories.value, messageId: 'invalidCategories' });
					return;
				}
				for (const category of categories.value.elements) {
					if (!category) continue;
					if (category.type !== AST_NODE_TYPES.Literal || typeof category.value !== 'string') {
						context.report({ node: category, messageId: 'invalidCategoryType' });
					} else if (category.value === 'Marketing') {
						context.report({ node: category, messageId: 'marketingCategory' });
					} else if (category.value === 'AI') {
						hasAi = true;
					} else if (!CATEGORIES.has(category.value)) {
						context.report({
							node: category,
							messageId: 'invalidCategory',
							data: { category: category.value },
						});
					}
				}
			}

			if (subcategories && subcategories.value.type !== AST_NODE_TYPES.ObjectExpression) {
				context.report({ node: subcategories.value, messageId: 'invalidSubcategories' });
				return;
			}
			const ai =
				subcategories?.value.type === AST_NODE_TYPES.ObjectExpression
					? findObjectProperty(subcategories.value, 'AI')
					: null;
			if (hasAi && !ai)
				context.report({ node: categories ?? codex, messageId: 'missingAiSubcategories' });
			if (ai && !hasAi) context.report({ node: ai, messageId: 'missingAiCategory' });
			if (subcategories && !hasAi && !ai)
				context.report({ node: subcategories, messageId: 'invalidSubcategories' });
			if (!ai) return;

			if (ai.value.type !== AST_NODE_TYPES.ArrayExpression || ai.value.elements.length === 0) {
				context.report({ node: ai.value, messageId: 'missingAiSubcategories' });
				return;
			}
			for (const subcategory of ai.value.elements) {
				if (!subcategory) continue;
				if (subcategory.type !== AST_NODE_TYPES.Literal || typeof subcategory.value !== 'string') {
					context.report({ node: subcategory, messageId: 'invalidAiSubcategoryType' });
				} else if (!AI_SUBCATEGORIES.has(subcategory.value)) {
					context.report({
						node: subcategory,
						messageId: 'invalidAiSubcategory',
						data: { subcategory: subcategory.value },
					});
				}
			}
		}

		if (isJson) {
			return {
				ObjectExpression(node) {
					const root = getTopLevelObjectInJson(node);
					if (root) checkCodex(root);
				},
			};
		}
		return createNodeDescriptionVisitor(context, 'resolved', (description) => {
			const codex = findObjectLiteralProperty(description, 'codex');
			if (codex) checkCodex(codex);
		});
	},
});
