/**
 * Port of upstream `no-duplicate-param-options`: in a top-level `options`/`multiOptions` parameter,
 * no two options may share a name or a value.
 */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
	createRule,
	findClassProperty,
	findObjectProperty,
	getLiteralValue,
	getStringLiteralValue,
	isFileType,
	isNodeTypeClass,
} from '../utils';

export const noDuplicateParamOptions = createRule({
	name: 'no-duplicate-param-options',
	meta: {
		type: 'problem',
		docs: { description: 'Disallow duplicate option names or values within a single node parameter' },
		messages: {
			duplicateName: 'Duplicate option name "{{ value }}" in parameter "{{ displayName }}".',
			duplicateValue: 'Duplicate option value "{{ value }}" in parameter "{{ displayName }}".',
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
					const type = getStringLiteralValue(findObjectProperty(parameter, 'type')?.value);
					if (type !== 'options' && type !== 'multiOptions') continue;
					const options = findObjectProperty(parameter, 'options')?.value;
					if (options?.type !== AST_NODE_TYPES.ArrayExpression) continue;
					const displayName =
						getStringLiteralValue(findObjectProperty(parameter, 'displayName')?.value) ?? 'unknown';

					const names = new Set<string>();
					const values = new Set<string | number | boolean>();
					for (const option of options.elements) {
						if (option?.type !== AST_NODE_TYPES.ObjectExpression) continue;
						const nameNode = findObjectProperty(option, 'name')?.value;
						const name = getStringLiteralValue(nameNode);
						if (nameNode && name !== null) {
							if (names.has(name)) {
								context.report({ node: nameNode, messageId: 'duplicateName', data: { value: name, displayName } });
							}
							names.add(name);
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
			},
		};
	},
});
