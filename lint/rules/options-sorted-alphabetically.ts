/**
 * Port of upstream `options-sorted-alphabetically`: the options of each top-level `options`
 * parameter are sorted by name (case-insensitive); parameters with any non-literal name are skipped.
 */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { createRule, findClassProperty, findObjectProperty, getStringLiteralValue, isFileType, isNodeTypeClass } from '../utils';

export const optionsSortedAlphabetically = createRule({
	name: 'options-sorted-alphabetically',
	meta: {
		type: 'suggestion',
		docs: { description: 'Enforce alphabetical ordering of options arrays in n8n node properties' },
		messages: {
			optionsNotSorted:
				'Options in "{{ displayName }}" are not sorted alphabetically. Expected order: {{ expectedOrder }}.',
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
				const properties = findObjectProperty(description, 'properties')?.value;
				if (properties?.type !== AST_NODE_TYPES.ArrayExpression) return;
				for (const parameter of properties.elements) {
					if (parameter?.type !== AST_NODE_TYPES.ObjectExpression) continue;
					if (getStringLiteralValue(findObjectProperty(parameter, 'type')?.value) !== 'options') continue;
					const options = findObjectProperty(parameter, 'options')?.value;
					if (options?.type !== AST_NODE_TYPES.ArrayExpression) continue;
					const names: string[] = [];
					let dynamic = false;
					for (const option of options.elements) {
						const name =
							option?.type === AST_NODE_TYPES.ObjectExpression
								? getStringLiteralValue(findObjectProperty(option, 'name')?.value)
								: null;
						if (name === null) {
							dynamic = true;
							break;
						}
						names.push(name);
					}
					if (dynamic || names.length <= 1) continue;
					const sorted = [...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
					if (names.every((name, i) => name === sorted[i])) continue;
					context.report({
						node: options,
						messageId: 'optionsNotSorted',
						data: {
							displayName: getStringLiteralValue(findObjectProperty(parameter, 'displayName')?.value) ?? 'unknown',
							expectedOrder: sorted.join(', '),
						},
					});
				}
			},
		};
	},
});
