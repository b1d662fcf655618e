/**
 * Port of upstream `require-param-default`: every object in the node description that has a
 * string `name` and a known parameter `type` must declare `default`.
 */
import { TSESTree } from '@typescript-eslint/utils';

import {
	createNodeClassVisitor,
	createRule,
	findObjectProperty,
	forEachObjectInDescriptionField,
	getStringProperty,
} from '../utils';

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
	const type = getStringProperty(node, 'type');
	return getStringProperty(node, 'name') !== null && type !== null && PARAMETER_TYPES.has(type);
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
		return createNodeClassVisitor(context, (node) =>
			forEachObjectInDescriptionField(node, (object) => {
				if (isParameter(object) && !findObjectProperty(object, 'default')) {
					const name = getStringProperty(object, 'name') ?? '';
					context.report({ node: object, messageId: 'missingDefault', data: { name } });
				}
			}),
		);
	},
});
