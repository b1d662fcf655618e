/**
 * Port of upstream `node-filename-against-convention`: the file is `<Name>.node.ts` where Name is
 * `description.name` with its first letter upper-cased (a trailing `V<digits>` is allowed).
 */
import * as path from 'node:path';

import { createNodeDescriptionVisitor, createRule, findStringProperty } from '../utils';

export const nodeFilenameAgainstConvention = createRule({
	name: 'node-filename-against-convention',
	meta: {
		type: 'problem',
		docs: { description: 'Node filename must match the node `description.name`' },
		messages: {
			renameFile: 'Node filename must match `description.name`. Rename file to "{{expected}}".',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createNodeDescriptionVisitor(context, 'field', (description) => {
			const name = findStringProperty(description, 'name');
			if (!name?.value) return;
			const expected = name.value.charAt(0).toUpperCase() + name.value.slice(1);
			const actual = path.basename(context.filename, '.node.ts').replace(/V\d+$/, '');
			if (actual !== expected) {
				context.report({
					node: name.node,
					messageId: 'renameFile',
					data: { expected: `${expected}.node.ts` },
				});
			}
		});
	},
});
