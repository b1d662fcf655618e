/** Port of upstream `no-asterisk-in-option-names`: no `*` in the `name` of any option in the node description. */
import {
	createNodeClassVisitor,
	createRule,
	findArrayLiteralProperty,
	findStringProperty,
	forEachObjectInDescriptionField,
	getObjectElements,
} from '../utils';

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
		return createNodeClassVisitor(context, (node) =>
			forEachObjectInDescriptionField(node, (object) => {
				for (const option of getObjectElements(findArrayLiteralProperty(object, 'options'))) {
					const found = findStringProperty(option, 'name');
					if (!found?.value.includes('*')) continue;
					const { node: valueNode, value: name } = found;
					context.report({
						node: valueNode,
						messageId: 'asteriskInOptionName',
						data: { name },
						suggest: [
							{
								messageId: 'replaceAsterisk',
								fix: (fixer) => {
									const quote = context.sourceCode.getText(valueNode).charAt(0) || "'";
									return fixer.replaceText(
										valueNode,
										`${quote}${name.replaceAll('*', '[All]')}${quote}`,
									);
								},
							},
						],
					});
				}
			}),
		);
	},
});
