/** Port of upstream `cred-filename-against-convention`: `<ClassName>.credentials.ts`. */
import * as path from 'node:path';

import { createCredentialClassVisitor, createRule } from '../utils';

export const credFilenameAgainstConvention = createRule({
	name: 'cred-filename-against-convention',
	meta: {
		type: 'problem',
		docs: { description: 'Credential filename must match the credential class name' },
		messages: {
			renameFile:
				'Credential filename must match the class name "{{className}}". Rename file to "{{expected}}".',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createCredentialClassVisitor(context, ({ id }) => {
			if (!id || path.basename(context.filename, '.credentials.ts') === id.name) return;
			context.report({
				node: id,
				messageId: 'renameFile',
				data: { className: id.name, expected: `${id.name}.credentials.ts` },
			});
		});
	},
});
