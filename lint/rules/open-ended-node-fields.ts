/** Port of upstream `open-ended-node-fields`: a top-level `json` parameter must be required. */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
	createRule,
	findArrayLiteralProperty,
	findNodeDescriptionObject,
	findObjectProperty,
	getBooleanLiteralValue,
	getStringLiteralValue,
	isFileType,
	isNodeTypeClass,
} from '../utils';

export const openEndedNodeFields = createRule({
	name: 'open-ended-node-fields',
	meta: {
		type: 'suggestion',
		docs: { description: 'Discourage optional open-ended JSON fields in node properties' },
		messages: {
			optionalJson:
				'Optional JSON fields can hide configuration. Use typed parameters under Additional Options or Additional Fields instead.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		if (!isFileType(context.filename, '.node.ts')) return {};
		return {
			ClassDeclaration(node) {
				if (!isNodeTypeClass(node)) return;
				const description = findNodeDescriptionObject(node);
				const properties = description && findArrayLiteralProperty(description, 'properties');
				for (const property of properties?.elements ?? []) {
					if (property?.type !== AST_NODE_TYPES.ObjectExpression) continue;
					if (getStringLiteralValue(findObjectProperty(property, 'type')?.value) !== 'json') continue;
					if (getBooleanLiteralValue(findObjectProperty(property, 'required')?.value) === true) continue;
					context.report({ node: property, messageId: 'optionalJson' });
				}
			},
		};
	},
});
