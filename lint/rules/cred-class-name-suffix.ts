/** Port of upstream `cred-class-name-suffix`: a credential class name ends with `Api`. */
import { createCredentialClassVisitor, createRule, withApiSuffix } from '../utils';

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
		return createCredentialClassVisitor(context, ({ id }) => {
			if (!id || id.name.endsWith('Api')) return;
			const fixed = withApiSuffix(id.name);
			context.report({
				node: id,
				messageId: 'missingSuffix',
				data: { name: id.name },
				fix: (f) => f.replaceText(id, fixed),
			});
		});
	},
});
