/** Port of upstream `cred-filename-against-convention`: `<ClassName>.credentials.ts`. */
import * as path from 'node:path';

import { createRule, isCredentialTypeClass, isFileType } from '../utils';

export const credFilenameAgainstConvention = createRule({
	name: 'cred-filename-against-convention',
	meta: {
		type: 'problem',
		docs: { description: 'Credential filename must match the credential class name' },
		messages: {
			renameFile: 'Credential filename must match the class name "{{className}}". Rename file to "{{expected}}".',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		if (!isFileType(context.filename, '.credentials.ts')) return {};
		return {
			ClassDeclaration(node) {
				if (!isCredentialTypeClass(node) || !node.id) return;
				const className = node.id.name;
				if (path.basename(context.filename, '.credentials.ts') !== className) {
					context.report({
						node: node.id,
						messageId: 'renameFile',
						data: { className, expected: `${className}.credentials.ts` },
					});
				}
			},
		};
	},
});
