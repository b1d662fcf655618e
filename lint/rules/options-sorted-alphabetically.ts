/**
 * Port of upstream `options-sorted-alphabetically`: the options of each top-level `options`
 * parameter are sorted by name (case-insensitive); parameters with any non-literal name are skipped.
 */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
	createNodeDescriptionVisitor,
	createRule,
	findOptionParameters,
	getParameterDisplayName,
	getStringProperty,
} from '../utils';

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
		return createNodeDescriptionVisitor(context, 'field', (description) => {
			for (const { parameter, options } of findOptionParameters(description, ['options'])) {
				const names: string[] = [];
				let dynamic = false;
				for (const option of options.elements) {
					const name =
						option?.type === AST_NODE_TYPES.ObjectExpression
							? getStringProperty(option, 'name')
							: null;
					if (name === null) {
						dynamic = true;
						break;
					}
					names.push(name);
				}
				if (dynamic || names.length <= 1) continue;
				const sorted = [...names].sort((a, b) =>
					a.localeCompare(b, undefined, { sensitivity: 'base' }),
				);
				if (names.every((name, i) => name === sorted[i])) continue;
				context.report({
					node: options,
					messageId: 'optionsNotSorted',
					data: {
						displayName: getParameterDisplayName(parameter),
						expectedOrder: sorted.join(', '),
					},
				});
			}
		});
	},
});
