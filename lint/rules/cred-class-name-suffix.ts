/** Port of upstream `cred-class-name-suffix`: a credential class name ends with `Api`. */
import { createRule, isCredentialTypeClass, isFileType } from '../utils';

export const credClassNameSuffix = createRule({
	name: 'cred-class-name-suffix',
	meta: {
		type: 'problem',
		docs: { description: 'Credential class names must be suffixed with `Api`' },
		messages: { missingSuffix: "Credential class name '{{name}}' must end with 'Api'" },
		fixable: 'code',
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		if (!isFileType(context.filename, '.credentials.ts')) return {};
		return {
			ClassDeclaration(node) {
				const id = node.id;
				if (!isCredentialTypeClass(node) || !id || id.name.endsWith('Api')) return;
				const name = id.name;
				const fixed = name.endsWith('Ap') ? `${name}i` : name.endsWith('A') ? `${name}pi` : `${name}Api`;
				context.report({ node: id, messageId: 'missingSuffix', data: { name }, fix: (f) => f.replaceText(id, fixed) });
			},
		};
	},
});
