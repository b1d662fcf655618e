/**
 * Port of upstream `require-param-default`: every object in the node description that has a
 * string `name` and a known parameter `type` must declare `default`.
 */
import { AST_NODE_TYPES, TSESTree } from '@typescript-eslint/utils';

import { createRule, findClassProperty, findObjectProperty, getStringLiteralValue, isFileType, isNodeTypeClass, walk } from '../utils';

const PARAMETER_TYPES = new Set([
	'boolean',
	'button',
	'collection',
	'color',
	'dateTime',
	'fixedCollection',
	'hidden',
	'icon',
	'json',
	'callout',
	'notice',
	'multiOptions',
	'number',
	'options',
	'string',
	'credentialsSelect',
	'resourceLocator',
	'curlImport',
	'resourceMapper',
	'filter',
	'assignmentCollection',
	'credentials',
	'workflowSelector',
]);

function isParameter(node: TSESTree.ObjectExpression): boolean {
	const type = getStringLiteralValue(findObjectProperty(node, 'type')?.value);
	return (
		getStringLiteralValue(findObjectProperty(node, 'name')?.value) !== null && type !== null && PARAMETER_TYPES.has(type)
	);
}

export const requireParamDefault = createRule({
	name: 'require-param-default',
	meta: {
		type: 'problem',
		docs: { description: 'Require every node parameter to declare a default value.' },
		messages: {
			missingDefault:
				"Node parameter '{{ name }}' is missing a `default` value. Add a `default` property so the parameter initialises consistently.",
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
					if (child.type === AST_NODE_TYPES.ObjectExpression && isParameter(child) && !findObjectProperty(child, 'default')) {
						const name = getStringLiteralValue(findObjectProperty(child, 'name')?.value) ?? '';
						context.report({ node: child, messageId: 'missingDefault', data: { name } });
					}
				});
			},
		};
	},
});
