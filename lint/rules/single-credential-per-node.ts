/**
 * Port of upstream `single-credential-per-node`: a node's `credentials` must not be usable at the
 * same time. Two entries are fine only when some `displayOptions.show` key (not a multiOptions
 * parameter) lists values on both that can never be equal; anything unresolved counts as overlapping.
 */
import { AST_NODE_TYPES, ASTUtils, TSESLint, TSESTree } from '@typescript-eslint/utils';

import {
	createNodeDescriptionVisitor,
	createRule,
	findArrayLiteralProperty,
	findObjectProperty,
	getLiteralValue,
	getPropertyKeyName,
	getStringProperty,
	getTopLevelParameters,
} from '../utils';

type Variable = NonNullable<ReturnType<typeof ASTUtils.findVariable>>;
/** A resolved display value: a typed literal, or `Imported.member` whose value is not in this file. */
type ShowValue = { literal: string } | { binding: Variable; member: string };
type Element = TSESTree.ArrayExpression['elements'][number];

function plainMember(
	node: TSESTree.Node,
):
	| (TSESTree.MemberExpression & { object: TSESTree.Identifier; property: TSESTree.Identifier })
	| null {
	return node.type === AST_NODE_TYPES.MemberExpression &&
		!node.computed &&
		node.object.type === AST_NODE_TYPES.Identifier &&
		node.property.type === AST_NODE_TYPES.Identifier
		? (node as TSESTree.MemberExpression & {
				object: TSESTree.Identifier;
				property: TSESTree.Identifier;
			})
		: null;
}

function soleDefinition(sourceCode: TSESLint.SourceCode, id: TSESTree.Identifier) {
	const variable = ASTUtils.findVariable(sourceCode.getScope(id), id);
	return { variable, definition: variable?.defs.length === 1 ? variable.defs[0]?.node : undefined };
}

function resolveShowValue(node: Element, sourceCode: TSESLint.SourceCode): ShowValue | null {
	if (!node || node.type === AST_NODE_TYPES.SpreadElement) return null;

	let value: unknown = ASTUtils.getStaticValue(node, sourceCode.getScope(node))?.value;
	const member = plainMember(node);
	if (value === undefined && member) {
		// A member of an enum declared in this file: use its initializer.
		const { definition } = soleDefinition(sourceCode, member.object);
		if (definition?.type === AST_NODE_TYPES.TSEnumDeclaration) {
			const enumMember = definition.body.members.find(
				({ id }) =>
					(id.type === AST_NODE_TYPES.Identifier && id.name === member.property.name) ||
					(id.type === AST_NODE_TYPES.Literal && id.value === member.property.name),
			);
			value = getLiteralValue(enumMember?.initializer) ?? undefined;
		}
	}
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
		return { literal: `${typeof value}:${String(value)}` };
	}

	if (member) {
		// `Imported.member`: distinct members of the same import are taken as distinct values.
		const { variable, definition } = soleDefinition(sourceCode, member.object);
		if (
			variable &&
			(definition?.type === AST_NODE_TYPES.ImportSpecifier ||
				definition?.type === AST_NODE_TYPES.ImportDefaultSpecifier ||
				definition?.type === AST_NODE_TYPES.ImportNamespaceSpecifier)
		) {
			return { binding: variable, member: member.property.name };
		}
	}
	return null;
}

function neverEqual(a: ShowValue, b: ShowValue): boolean {
	if ('literal' in a && 'literal' in b) return a.literal !== b.literal;
	return 'binding' in a && 'binding' in b && a.binding === b.binding && a.member !== b.member;
}

/** `displayOptions.show` of a credential entry: key -> all its values (keys with any unresolved value are left out). */
function showConditions(entry: Element, sourceCode: TSESLint.SourceCode): Map<string, ShowValue[]> {
	const conditions = new Map<string, ShowValue[]>();
	if (entry?.type !== AST_NODE_TYPES.ObjectExpression) return conditions;
	const displayOptions = findObjectProperty(entry, 'displayOptions');
	if (displayOptions?.value.type !== AST_NODE_TYPES.ObjectExpression) return conditions;
	const show = findObjectProperty(displayOptions.value, 'show');
	if (show?.value.type !== AST_NODE_TYPES.ObjectExpression) return conditions;

	for (const property of show.value.properties) {
		if (
			property.type !== AST_NODE_TYPES.Property ||
			property.value.type !== AST_NODE_TYPES.ArrayExpression
		)
			continue;
		const key = getPropertyKeyName(property);
		if (!key) continue;
		const values: ShowValue[] = [];
		let resolved = true;
		for (const element of property.value.elements) {
			const value = resolveShowValue(element, sourceCode);
			if (!value) {
				resolved = false;
				break;
			}
			values.push(value);
		}
		if (resolved && values.length > 0) conditions.set(key, values);
	}
	return conditions;
}

/** Names of the node's top-level `multiOptions` parameters (several values can be selected at once). */
function multiOptionNames(description: TSESTree.ObjectExpression): Set<string> {
	const names = new Set<string>();
	for (const element of getTopLevelParameters(description)) {
		const name = getStringProperty(element, 'name');
		if (name !== null && getStringProperty(element, 'type') === 'multiOptions') names.add(name);
	}
	return names;
}

function mutuallyExclusive(
	left: Element,
	right: Element,
	multi: Set<string>,
	sourceCode: TSESLint.SourceCode,
): boolean {
	const rightConditions = showConditions(right, sourceCode);
	for (const [key, leftValues] of showConditions(left, sourceCode)) {
		if (multi.has(key)) continue;
		const rightValues = rightConditions.get(key);
		if (rightValues && leftValues.every((l) => rightValues.every((r) => neverEqual(l, r))))
			return true;
	}
	return false;
}

export const singleCredentialPerNode = createRule({
	name: 'single-credential-per-node',
	meta: {
		type: 'problem',
		docs: { description: 'Ensure a node uses only one credential at a time' },
		messages: {
			multipleCredentials:
				'A node can use only one credential at a time. Use mutually exclusive displayOptions for alternative authentication methods. Move non-authentication settings to a node property or collection so users can set them with expressions.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createNodeDescriptionVisitor(context, 'resolved', (description) => {
			const credentials = findArrayLiteralProperty(description, 'credentials');
			if (!credentials || credentials.elements.length < 2) return;
			const multi = multiOptionNames(description);
			const entries = credentials.elements;
			for (let i = 0; i < entries.length - 1; i++) {
				for (let j = i + 1; j < entries.length; j++) {
					if (
						!mutuallyExclusive(entries[i] ?? null, entries[j] ?? null, multi, context.sourceCode)
					) {
						context.report({ node: credentials, messageId: 'multipleCredentials' });
						return;
					}
				}
			}
		});
	},
});
