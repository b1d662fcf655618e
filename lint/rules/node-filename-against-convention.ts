/**
 * Port of upstream `node-filename-against-convention`: the file is `<Name>.node.ts` where Name is
 * `description.name` with its first letter upper-cased (a trailing `V<digits>` is allowed).
 */
import * as path from 'node:path';

import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { createRule, findClassProperty, findObjectProperty, getStringLiteralValue, isFileType, isNodeTypeClass } from '../utils';

export const nodeFilenameAgainstConvention = createRule({
	name: 'node-filename-against-convention',
	meta: {
		type: 'problem',
		docs: { description: 'Node filename must match the node `description.name`' },
		messages: { renameFile: 'Node filename must match `description.name`. Rename file to "{{expected}}".' },
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
				const nameNode = findObjectProperty(description, 'name')?.value;
				const name = getStringLiteralValue(nameNode);
				if (!nameNode || !name) return;
				const expected = name.charAt(0).toUpperCase() + name.slice(1);
				const actual = path.basename(context.filename, '.node.ts').replace(/V\d+$/, '');
				if (actual !== expected) {
					context.report({ node: nameNode, messageId: 'renameFile', data: { expected: `${expected}.node.ts` } });
				}
			},
		};
	},
});
