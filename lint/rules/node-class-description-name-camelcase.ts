/** Port of upstream `node-class-description-name-camelcase`: `description.name` matches /^[a-z][a-zA-Z0-9]*$/. */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { createRule, findClassProperty, findObjectProperty, getStringLiteralValue, isFileType, isNodeTypeClass } from '../utils';

const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;

function toCamelCase(value: string): string {
	const parts = value.split(/[^a-zA-Z0-9]+/).filter(Boolean);
	if (parts.length === 0) return value;
	const joined = parts.map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1))).join('');
	return joined.charAt(0).toLowerCase() + joined.slice(1);
}

function quoted(value: string, quote: string): string {
	const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').split(quote).join(`\\${quote}`);
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
		if (!isFileType(context.filename, '.node.ts')) return {};
		return {
			ClassDeclaration(node) {
				if (!isNodeTypeClass(node)) return;
				const description = findClassProperty(node, 'description')?.value;
				if (description?.type !== AST_NODE_TYPES.ObjectExpression) return;
				const valueNode = findObjectProperty(description, 'name')?.value;
				const value = getStringLiteralValue(valueNode);
				if (!valueNode || value === null || CAMEL_CASE.test(value)) return;
				const fixed = toCamelCase(value);
				const canFix = fixed !== value && CAMEL_CASE.test(fixed);
				context.report({
					node: valueNode,
					messageId: 'notCamelCase',
					data: { value },
					fix: canFix
						? (fixer) => fixer.replaceText(valueNode, quoted(fixed, context.sourceCode.getText(valueNode).charAt(0)))
						: null,
				});
			},
		};
	},
});
