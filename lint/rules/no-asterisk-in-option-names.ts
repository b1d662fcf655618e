/** Port of upstream `no-asterisk-in-option-names`: no `*` in the `name` of any option in the node description. */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { createRule, findClassProperty, findObjectProperty, getStringLiteralValue, isFileType, isNodeTypeClass, walk } from '../utils';

export const noAsteriskInOptionNames = createRule({
	name: 'no-asterisk-in-option-names',
	meta: {
		type: 'suggestion',
		docs: { description: 'Disallow asterisk characters in node option name values' },
		hasSuggestions: true,
		messages: {
			asteriskInOptionName:
				'Option name "{{ name }}" contains "*", which renders ambiguously in the n8n UI. Use bracketed notation like "[All]" instead.',
			replaceAsterisk: 'Replace "*" with "[All]".',
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
				if (!description) return;
				walk(description, (child) => {
					if (child.type !== AST_NODE_TYPES.ObjectExpression) return;
					const options = findObjectProperty(child, 'options')?.value;
					if (options?.type !== AST_NODE_TYPES.ArrayExpression) return;
					for (const option of options.elements) {
						if (option?.type !== AST_NODE_TYPES.ObjectExpression) continue;
						const valueNode = findObjectProperty(option, 'name')?.value;
						const name = getStringLiteralValue(valueNode);
						if (!valueNode || name === null || !name.includes('*')) continue;
						context.report({
							node: valueNode,
							messageId: 'asteriskInOptionName',
							data: { name },
							suggest: [
								{
									messageId: 'replaceAsterisk',
									fix: (fixer) => {
										const quote = context.sourceCode.getText(valueNode).charAt(0) || "'";
										return fixer.replaceText(valueNode, `${quote}${name.replaceAll('*', '[All]')}${quote}`);
									},
								},
							],
						});
					}
				});
			},
		};
	},
});
