/**
 * Port of upstream `valid-codex-categories`: an inline `description.codex` may use only n8n's known
 * categories/subcategories; `subcategories` must be an object keyed by known categories; an "AI"
 * node with a main output must list "Root Nodes" in `subcategories.AI`.
 */
import { AST_NODE_TYPES, TSESLint, TSESTree } from '@typescript-eslint/utils';

import { KNOWN_CODEX_CATEGORIES, KNOWN_CODEX_SUBCATEGORIES } from '../codex';
import {
	createRule,
	findArrayLiteralProperty,
	findDescriptionFieldObject,
	findObjectLiteralProperty,
	findObjectProperty,
	getStringLiteralValue,
	isNodeTypeClass,
} from '../utils';

type MessageIds =
	| 'unknownCategory'
	| 'unknownSubcategoryKey'
	| 'unknownSubcategory'
	| 'invalidSubcategoriesShape'
	| 'aiCategoryWithoutRootNodes'
	| 'didYouMean';

function levenshtein(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			current[j] = Math.min(
				previous[j]! + 1,
				current[j - 1]! + 1,
				previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
			);
		}
		previous = current;
	}
	return previous[b.length]!;
}

/** Up to three known values within edit distance 3 (case-insensitive), closest first. */
export function findSimilarStrings(target: string, candidates: Set<string>): string[] {
	return [...candidates]
		.map((name) => ({ name, distance: levenshtein(target.toLowerCase(), name.toLowerCase()) }))
		.filter(({ distance }) => distance <= 3)
		.sort((a, b) => a.distance - b.distance)
		.slice(0, 3)
		.map(({ name }) => name);
}

/** true/false when `outputs` is a literal array with/without main; null when it cannot be told. */
function includesMainOutput(outputs: TSESTree.Node | null | undefined): boolean | null {
	if (outputs?.type !== AST_NODE_TYPES.ArrayExpression) return null;
	return outputs.elements.some(
		(element) =>
			element !== null &&
			(getStringLiteralValue(element) === 'main' ||
				(element.type === AST_NODE_TYPES.MemberExpression &&
					element.object.type === AST_NODE_TYPES.Identifier &&
					element.object.name === 'NodeConnectionTypes' &&
					element.property.type === AST_NODE_TYPES.Identifier &&
					element.property.name === 'Main')),
	);
}

export const validCodexCategories = createRule({
	name: 'valid-codex-categories',
	meta: {
		type: 'problem',
		docs: {
			description:
				"Ensure codex categories and subcategories only use values from n8n's known taxonomy",
		},
		messages: {
			unknownCategory:
				'Codex category "{{ value }}" is not part of n8n\'s known category taxonomy. An unrecognized value can silently hide the node from the node panel search.',
			unknownSubcategoryKey:
				'"{{ value }}" is not a recognized category, so it cannot be used as a key in `codex.subcategories`.',
			unknownSubcategory:
				'Codex subcategory "{{ value }}" is not part of n8n\'s known subcategory taxonomy. An unrecognized value can silently hide the node from the node panel search.',
			invalidSubcategoriesShape:
				'`codex.subcategories` must map category names to arrays of subcategory strings (e.g. `{ "Core Nodes": ["Helpers"] }`), not a plain array.',
			aiCategoryWithoutRootNodes:
				'This node outputs "main" data (it can be used as a standalone step) but declares codex category "AI" without "Root Nodes" in `subcategories.AI`. The node panel only shows "AI"-categorized nodes in the main "Add node" search when they are marked as a Root Node.',
			didYouMean: "Did you mean '{{ suggestedName }}'?",
		},
		schema: [],
		hasSuggestions: true,
	},
	defaultOptions: [],
	create(context) {
		function checkValues(
			array: TSESTree.ArrayExpression,
			known: Set<string>,
			messageId: 'unknownCategory' | 'unknownSubcategory',
		) {
			for (const element of array.elements) {
				const value = getStringLiteralValue(element);
				if (!element || value === null || known.has(value)) continue;
				const suggest: TSESLint.ReportSuggestionArray<MessageIds> = findSimilarStrings(
					value,
					known,
				).map((suggestedName) => ({
					messageId: 'didYouMean' as const,
					data: { suggestedName },
					fix: (fixer: TSESLint.RuleFixer) => fixer.replaceText(element, `"${suggestedName}"`),
				}));
				context.report({ node: element, messageId, data: { value }, suggest });
			}
		}

		return {
			ClassDeclaration(node) {
				if (!isNodeTypeClass(node)) return;
				const description = findDescriptionFieldObject(node);
				const codex = description && findObjectLiteralProperty(description, 'codex');
				if (!description || !codex) return;

				const categories = findArrayLiteralProperty(codex, 'categories');
				if (categories) checkValues(categories, KNOWN_CODEX_CATEGORIES, 'unknownCategory');

				const subcategories = findObjectProperty(codex, 'subcategories')?.value;
				let aiSubcategories: TSESTree.ArrayExpression | null = null;
				let shapeValid = true;
				if (subcategories?.type === AST_NODE_TYPES.ArrayExpression) {
					context.report({ node: subcategories, messageId: 'invalidSubcategoriesShape' });
					shapeValid = false;
				} else if (subcategories?.type === AST_NODE_TYPES.ObjectExpression) {
					for (const property of subcategories.properties) {
						if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
						const key =
							property.key.type === AST_NODE_TYPES.Identifier
								? property.key.name
								: getStringLiteralValue(property.key);
						if (key !== null && !KNOWN_CODEX_CATEGORIES.has(key)) {
							context.report({
								node: property.key,
								messageId: 'unknownSubcategoryKey',
								data: { value: key },
							});
						}
						if (property.value.type !== AST_NODE_TYPES.ArrayExpression) continue;
						checkValues(property.value, KNOWN_CODEX_SUBCATEGORIES, 'unknownSubcategory');
						if (key === 'AI') aiSubcategories = property.value;
					}
				}

				if (!categories || !shapeValid) return;
				const aiCategory = categories.elements.find(
					(element) => getStringLiteralValue(element) === 'AI',
				);
				if (!aiCategory) return;
				if (includesMainOutput(findObjectProperty(description, 'outputs')?.value) !== true) return;
				const hasRootNodes = (aiSubcategories?.elements ?? []).some(
					(e) => getStringLiteralValue(e) === 'Root Nodes',
				);
				if (!hasRootNodes)
					context.report({ node: aiCategory, messageId: 'aiCategoryWithoutRootNodes' });
			},
		};
	},
});
