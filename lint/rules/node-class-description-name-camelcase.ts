/** Port of upstream `node-class-description-name-camelcase`: `description.name` matches /^[a-z][a-zA-Z0-9]*$/. */
import { createNodeDescriptionVisitor, createRule, findStringProperty } from '../utils';

const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;

function toCamelCase(value: string): string {
	const parts = value.split(/[^a-zA-Z0-9]+/).filter(Boolean);
	if (parts.length === 0) return value;
	const joined = parts
		.map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
		.join('');
	return joined.charAt(0).toLowerCase() + joined.slice(1);
}

function quoted(value: string, quote: string): string {
	const escaped = value
		.replace(/\\/g, '\\\\')
		.replace(/\n/g, '\\n')
		.replace(/\r/g, '\\r')
		.split(quote)
		.join(`\\${quote}`);
	return `${quote}${escaped}${quote}`;
}

export const nodeClassDescriptionNameCamelcase = createRule({
	name: 'node-class-description-name-camelcase',
	meta: {
		type: 'problem',
		docs: { description: 'Node class `description.name` must be camelCase' },
		messages: { notCamelCase: "Node `description.name` '{{value}}' must be camelCase" },
		fixable: 'code',
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createNodeDescriptionVisitor(context, 'field', (description) => {
			const name = findStringProperty(description, 'name');
			if (!name || CAMEL_CASE.test(name.value)) return;
			const { node: valueNode, value } = name;
			const fixed = toCamelCase(value);
			const canFix = fixed !== value && CAMEL_CASE.test(fixed);
			context.report({
				node: valueNode,
				messageId: 'notCamelCase',
				data: { value },
				fix: canFix
					? (fixer) =>
							fixer.replaceText(
								valueNode,
								quoted(fixed, context.sourceCode.getText(valueNode).charAt(0)),
							)
					: null,
			});
		});
	},
});
