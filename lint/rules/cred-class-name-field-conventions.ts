/** Port of upstream `cred-class-name-field-conventions`: a credential's `name` starts lowercase and ends with `Api`. */
import {
	createCredentialClassVisitor,
	createRule,
	findClassProperty,
	getStringLiteralValue,
	withApiSuffix,
} from '../utils';

export const credClassNameFieldConventions = createRule({
	name: 'cred-class-name-field-conventions',
	meta: {
		type: 'problem',
		docs: {
			description: 'Credential `name` field must end with `Api` and start with a lowercase letter',
		},
		messages: {
			missingSuffix: "Credential `name` field '{{value}}' must end with 'Api'",
			uppercaseFirstChar: "Credential `name` field '{{value}}' must start with a lowercase letter",
		},
		fixable: 'code',
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createCredentialClassVisitor(context, (node) => {
			const valueNode = findClassProperty(node, 'name')?.value;
			const value = getStringLiteralValue(valueNode);
			if (!valueNode || value === null) return;
			const fixed = `'${withApiSuffix(value.charAt(0).toLowerCase() + value.slice(1))}'`;
			const problems = [
				{ messageId: 'uppercaseFirstChar' as const, failed: /^[A-Z]/.test(value) },
				{ messageId: 'missingSuffix' as const, failed: !value.endsWith('Api') },
			];
			for (const { messageId, failed } of problems) {
				if (failed)
					context.report({
						node: valueNode,
						messageId,
						data: { value },
						fix: (f) => f.replaceText(valueNode, fixed),
					});
			}
		});
	},
});
