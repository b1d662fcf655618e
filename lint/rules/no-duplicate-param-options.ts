/**
 * Port of upstream `no-duplicate-param-options`: in a top-level `options`/`multiOptions` parameter,
 * no two options may share a name or a value.
 */
import {
	createNodeDescriptionVisitor,
	createRule,
	findOptionParameters,
	findObjectProperty,
	findStringProperty,
	getLiteralValue,
	getObjectElements,
	getParameterDisplayName,
} from '../utils';

export const noDuplicateParamOptions = createRule({
	name: 'no-duplicate-param-options',
	meta: {
		type: 'problem',
		docs: {
			description: 'Disallow duplicate option names or values within a single node parameter',
		},
		messages: {
			duplicateName: 'Duplicate option name "{{ value }}" in parameter "{{ displayName }}".',
			duplicateValue: 'Duplicate option value "{{ value }}" in parameter "{{ displayName }}".',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createNodeDescriptionVisitor(context, 'field', (description) => {
			for (const { parameter, options } of findOptionParameters(description, [
				'options',
				'multiOptions',
			])) {
				const displayName = getParameterDisplayName(parameter);
				const names = new Set<string>();
				const values = new Set<string | number | boolean>();
				for (const option of getObjectElements(options)) {
					const name = findStringProperty(option, 'name');
					if (name) {
						if (names.has(name.value)) {
							context.report({
								node: name.node,
								messageId: 'duplicateName',
								data: { value: name.value, displayName },
							});
						}
						names.add(name.value);
					}
					const valueNode = findObjectProperty(option, 'value')?.value;
					const value = getLiteralValue(valueNode);
					if (valueNode && value !== null) {
						if (values.has(value)) {
							context.report({
								node: valueNode,
								messageId: 'duplicateValue',
								data: { value: String(value), displayName },
							});
						}
						values.add(value);
					}
				}
			}
		});
	},
});
