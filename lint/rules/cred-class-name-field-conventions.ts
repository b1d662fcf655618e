/** Port of upstream `cred-class-name-field-conventions`: a credential's `name` starts lowercase and ends with `Api`. */
import { createRule, findClassProperty, getStringLiteralValue, isCredentialTypeClass, isFileType } from '../utils';

function withApiSuffix(name: string): string {
	if (name.endsWith('Api')) return name;
	if (name.endsWith('Ap')) return `${name}i`;
	if (name.endsWith('A')) return `${name}pi`;
	return `${name}Api`;
}

export const credClassNameFieldConventions = createRule({
	name: 'cred-class-name-field-conventions',
	meta: {
		type: 'problem',
		docs: { description: 'Credential `name` field must end with `Api` and start with a lowercase letter' },
		messages: {
			missingSuffix: "Credential `name` field '{{value}}' must end with 'Api'",
			uppercaseFirstChar: "Credential `name` field '{{value}}' must start with a lowercase letter",
		},
		fixable: 'code',
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		if (!isFileType(context.filename, '.credentials.ts')) return {};
		return {
			ClassDeclaration(node) {
				if (!isCredentialTypeClass(node)) return;
				const valueNode = findClassProperty(node, 'name')?.value;
				const value = getStringLiteralValue(valueNode);
				if (!valueNode || value === null) return;
				const lowercaseStart = !/^[A-Z]/.test(value);
				const apiEnd = value.endsWith('Api');
				const fixed = `'${withApiSuffix(value.charAt(0).toLowerCase() + value.slice(1))}'`;
				if (!lowercaseStart) {
					context.report({ node: valueNode, messageId: 'uppercaseFirstChar', data: { value }, fix: (f) => f.replaceText(valueNode, fixed) });
				}
				if (!apiEnd) {
					context.report({ node: valueNode, messageId: 'missingSuffix', data: { value }, fix: (f) => f.replaceText(valueNode, fixed) });
				}
			},
		};
	},
});
