/**
 * AST helpers for the local rules in lint/rules/. They mirror the helpers that
 * @n8n/eslint-plugin-community-nodes uses (src/utils/ast-utils.ts upstream) so that the ported
 * rules decide exactly what the upstream ones decide. Written for this repo, not copied.
 */
import { readFileSync } from 'node:fs';

import { AST_NODE_TYPES, ESLintUtils, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { parse } from '@typescript-eslint/typescript-estree';

/** Rule ids are `@local/community-nodes/<upstream name>`; docs point at the upstream rule's page. */
export const createRule = ESLintUtils.RuleCreator(
	(name) =>
		`https://github.com/n8n-io/n8n/blob/master/packages/@n8n/eslint-plugin-community-nodes/docs/rules/${name}.md`,
);

export function isFileType(filename: string, extension: string): boolean {
	return filename.endsWith(extension);
}

function implementsInterface(node: TSESTree.ClassDeclaration, name: string): boolean {
	return (node.implements ?? []).some(
		(clause) =>
			clause.expression.type === AST_NODE_TYPES.Identifier && clause.expression.name === name,
	);
}

/** A class that `implements INodeType` or `extends Node`. */
export function isNodeTypeClass(node: TSESTree.ClassDeclaration): boolean {
	if (implementsInterface(node, 'INodeType')) return true;
	return node.superClass?.type === AST_NODE_TYPES.Identifier && node.superClass.name === 'Node';
}

export function isCredentialTypeClass(node: TSESTree.ClassDeclaration): boolean {
	return implementsInterface(node, 'ICredentialType');
}

/** `group` containing 'trigger', or (fallback) a class name ending in Trigger. */
export function isTriggerNode(
	node: TSESTree.ClassDeclaration,
	description: TSESTree.ObjectExpression,
): boolean {
	const group = findArrayLiteralProperty(description, 'group');
	const inTriggerGroup = (group?.elements ?? []).some(
		(element) => getStringLiteralValue(element) === 'trigger',
	);
	return inTriggerGroup || (node.id?.name.endsWith('Trigger') ?? false);
}

/** A class field by identifier name (`description = {...}`, `name = 'x'`). */
export function findClassProperty(
	node: TSESTree.ClassDeclaration,
	name: string,
): TSESTree.PropertyDefinition | null {
	for (const member of node.body.body) {
		if (
			member.type === AST_NODE_TYPES.PropertyDefinition &&
			member.key.type === AST_NODE_TYPES.Identifier &&
			member.key.name === name
		) {
			return member;
		}
	}
	return null;
}

/** Unwraps `x as T`, `x satisfies T`, `<T>x` and `x!` down to an object literal. */
function unwrapObject(node: TSESTree.Node | null | undefined): TSESTree.ObjectExpression | null {
	let current = node ?? null;
	while (
		current &&
		(current.type === AST_NODE_TYPES.TSAsExpression ||
			current.type === AST_NODE_TYPES.TSSatisfiesExpression ||
			current.type === AST_NODE_TYPES.TSTypeAssertion ||
			current.type === AST_NODE_TYPES.TSNonNullExpression)
	) {
		current = current.expression;
	}
	return current?.type === AST_NODE_TYPES.ObjectExpression ? current : null;
}

/**
 * The node's `description` object literal: the class field's initializer or, for versioned nodes,
 * the object assigned to `this.description` in the constructor.
 */
export function findNodeDescriptionObject(
	node: TSESTree.ClassDeclaration,
): TSESTree.ObjectExpression | null {
	const fromField = unwrapObject(findClassProperty(node, 'description')?.value);
	if (fromField) return fromField;

	for (const member of node.body.body) {
		if (member.type !== AST_NODE_TYPES.MethodDefinition || member.kind !== 'constructor') continue;
		for (const statement of member.value.body?.body ?? []) {
			if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
			const assignment = statement.expression;
			if (
				assignment.type === AST_NODE_TYPES.AssignmentExpression &&
				assignment.operator === '=' &&
				assignment.left.type === AST_NODE_TYPES.MemberExpression &&
				assignment.left.object.type === AST_NODE_TYPES.ThisExpression &&
				assignment.left.property.type === AST_NODE_TYPES.Identifier &&
				assignment.left.property.name === 'description'
			) {
				const assigned = unwrapObject(assignment.right);
				if (assigned) return assigned;
			}
		}
	}
	return null;
}

/** The `description` class field's initializer when it is a plain object literal (no unwrapping, no constructor). */
export function findDescriptionFieldObject(
	node: TSESTree.ClassDeclaration,
): TSESTree.ObjectExpression | null {
	const value = findClassProperty(node, 'description')?.value;
	return value?.type === AST_NODE_TYPES.ObjectExpression ? value : null;
}

/**
 * Which `description` a rule reads: `field` is the class field's plain object literal only
 * ({@link findDescriptionFieldObject}); `resolved` also unwraps type assertions and reads the
 * constructor's `this.description = {...}` ({@link findNodeDescriptionObject}).
 */
export type DescriptionLookup = 'field' | 'resolved';

function createClassVisitor(
	context: { readonly filename: string },
	extension: string,
	isKind: (node: TSESTree.ClassDeclaration) => boolean,
	check: (node: TSESTree.ClassDeclaration) => void,
): TSESLint.RuleListener {
	if (!isFileType(context.filename, extension)) return {};
	return {
		ClassDeclaration(node) {
			if (isKind(node)) check(node);
		},
	};
}

/** Rule listener for `.node.ts` files that calls `check` with every node-type class. */
export function createNodeClassVisitor(
	context: { readonly filename: string },
	check: (node: TSESTree.ClassDeclaration) => void,
): TSESLint.RuleListener {
	return createClassVisitor(context, '.node.ts', isNodeTypeClass, check);
}

/** Rule listener for `.node.ts` files that calls `check` with the description object of every node-type class. */
export function createNodeDescriptionVisitor(
	context: { readonly filename: string },
	lookup: DescriptionLookup,
	check: (description: TSESTree.ObjectExpression, node: TSESTree.ClassDeclaration) => void,
): TSESLint.RuleListener {
	return createNodeClassVisitor(context, (node) => {
		const description =
			lookup === 'field' ? findDescriptionFieldObject(node) : findNodeDescriptionObject(node);
		if (description) check(description, node);
	});
}

/** Rule listener for `.credentials.ts` files that calls `check` with every credential-type class. */
export function createCredentialClassVisitor(
	context: { readonly filename: string },
	check: (node: TSESTree.ClassDeclaration) => void,
): TSESLint.RuleListener {
	return createClassVisitor(context, '.credentials.ts', isCredentialTypeClass, check);
}

/**
 * Calls `visit` with every object literal inside the `description` class field's initializer,
 * whatever wraps it (the constructor is not read).
 */
export function forEachObjectInDescriptionField(
	node: TSESTree.ClassDeclaration,
	visit: (object: TSESTree.ObjectExpression) => void,
): void {
	const description = findClassProperty(node, 'description')?.value;
	if (!description) return;
	walk(description, (child) => {
		if (child.type === AST_NODE_TYPES.ObjectExpression) visit(child);
	});
}

/** The object literal elements of an array literal (holes, spreads and other expressions skipped). */
export function getObjectElements(
	array: TSESTree.ArrayExpression | null | undefined,
): TSESTree.ObjectExpression[] {
	return (array?.elements ?? []).filter(
		(element): element is TSESTree.ObjectExpression =>
			element?.type === AST_NODE_TYPES.ObjectExpression,
	);
}

/** The node's top-level parameters: the object literals of the description's `properties` array. */
export function getTopLevelParameters(
	description: TSESTree.ObjectExpression,
): TSESTree.ObjectExpression[] {
	return getObjectElements(findArrayLiteralProperty(description, 'properties'));
}

/** Top-level parameters whose `type` is one of `types` and whose `options` is an array literal. */
export function findOptionParameters(
	description: TSESTree.ObjectExpression,
	types: readonly string[],
): { parameter: TSESTree.ObjectExpression; options: TSESTree.ArrayExpression }[] {
	const found: { parameter: TSESTree.ObjectExpression; options: TSESTree.ArrayExpression }[] = [];
	for (const parameter of getTopLevelParameters(description)) {
		const type = getStringProperty(parameter, 'type');
		if (type === null || !types.includes(type)) continue;
		const options = findArrayLiteralProperty(parameter, 'options');
		if (options) found.push({ parameter, options });
	}
	return found;
}

/** A parameter's literal `displayName` for messages, else 'unknown'. */
export function getParameterDisplayName(parameter: TSESTree.ObjectExpression): string {
	return getStringProperty(parameter, 'displayName') ?? 'unknown';
}

/**
 * A property of an object literal by key: `name: ...` or `'name': ...` (the newer upstream helper
 * accepts both, which is what lets the codex rules read .node.json files).
 */
export function findObjectProperty(
	obj: TSESTree.ObjectExpression,
	name: string,
): TSESTree.Property | null {
	for (const property of obj.properties) {
		if (property.type === AST_NODE_TYPES.Property && getPropertyKeyName(property) === name)
			return property;
	}
	return null;
}

/** A property of an object literal whose key is the string literal `name` (JSON files). */
export function findJsonProperty(
	obj: TSESTree.ObjectExpression,
	name: string,
): TSESTree.Property | null {
	for (const property of obj.properties) {
		if (
			property.type === AST_NODE_TYPES.Property &&
			property.key.type === AST_NODE_TYPES.Literal &&
			property.key.value === name
		) {
			return property;
		}
	}
	return null;
}

export function findArrayLiteralProperty(
	obj: TSESTree.ObjectExpression,
	name: string,
): TSESTree.ArrayExpression | null {
	const property = findObjectProperty(obj, name);
	return property?.value.type === AST_NODE_TYPES.ArrayExpression ? property.value : null;
}

export function findObjectLiteralProperty(
	obj: TSESTree.ObjectExpression,
	name: string,
): TSESTree.ObjectExpression | null {
	const property = findObjectProperty(obj, name);
	return property?.value.type === AST_NODE_TYPES.ObjectExpression ? property.value : null;
}

/** The string literal value of property `name` of an object literal, else null. */
export function getStringProperty(obj: TSESTree.ObjectExpression, name: string): string | null {
	return getStringLiteralValue(findObjectProperty(obj, name)?.value);
}

/** The boolean literal value of property `name` of an object literal, else null. */
export function getBooleanProperty(obj: TSESTree.ObjectExpression, name: string): boolean | null {
	return getBooleanLiteralValue(findObjectProperty(obj, name)?.value);
}

/** Property `name`'s value node together with its string literal value, when it is a string literal. */
export function findStringProperty(
	obj: TSESTree.ObjectExpression,
	name: string,
): { node: TSESTree.Property['value']; value: string } | null {
	const node = findObjectProperty(obj, name)?.value;
	const value = getStringLiteralValue(node);
	return node && value !== null ? { node, value } : null;
}

export function getLiteralValue(
	node: TSESTree.Node | null | undefined,
): string | number | boolean | null {
	if (node?.type !== AST_NODE_TYPES.Literal) return null;
	const { value } = node;
	return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
		? value
		: null;
}

export function getStringLiteralValue(node: TSESTree.Node | null | undefined): string | null {
	const value = getLiteralValue(node);
	return typeof value === 'string' ? value : null;
}

export function getBooleanLiteralValue(node: TSESTree.Node | null | undefined): boolean | null {
	const value = getLiteralValue(node);
	return typeof value === 'boolean' ? value : null;
}

/** The static name of a Property / PropertyDefinition / MethodDefinition key, else null. */
export function getPropertyKeyName(
	node: TSESTree.Property | TSESTree.PropertyDefinition | TSESTree.MethodDefinition,
): string | null {
	if (node.key.type === AST_NODE_TYPES.Identifier && !node.computed) return node.key.name;
	if (node.key.type === AST_NODE_TYPES.Literal && typeof node.key.value === 'string')
		return node.key.value;
	return null;
}

/** `name` completed to end with `Api` (`xAp` → `xApi`, `xA` → `xApi`, else `xApi` appended). */
export function withApiSuffix(name: string): string {
	if (name.endsWith('Api')) return name;
	if (name.endsWith('Ap')) return `${name}i`;
	if (name.endsWith('A')) return `${name}pi`;
	return `${name}Api`;
}

/** In a JSON file parsed as a program, the root object is the sole expression statement. */
export function getTopLevelObjectInJson(
	node: TSESTree.ObjectExpression,
): TSESTree.ObjectExpression | null {
	return node.parent?.type === AST_NODE_TYPES.ExpressionStatement ? node : null;
}

/** `this.helpers` as the object of a member expression (`this.helpers.x`). */
export function isThisHelpersAccess(node: TSESTree.MemberExpression): boolean {
	const object = node.object;
	return (
		object.type === AST_NODE_TYPES.MemberExpression &&
		object.object.type === AST_NODE_TYPES.ThisExpression &&
		object.property.type === AST_NODE_TYPES.Identifier &&
		object.property.name === 'helpers'
	);
}

/** `this.<method>(...)`. */
export function isThisMethodCall(node: TSESTree.CallExpression, method: string): boolean {
	return (
		node.callee.type === AST_NODE_TYPES.MemberExpression &&
		node.callee.object.type === AST_NODE_TYPES.ThisExpression &&
		node.callee.property.type === AST_NODE_TYPES.Identifier &&
		node.callee.property.name === method
	);
}

/** Calls `visit` for every AST node below `node` (not following `parent`). */
export function walk(node: TSESTree.Node, visit: (node: TSESTree.Node) => boolean | void): boolean {
	if (visit(node) === true) return true;
	for (const key of Object.keys(node)) {
		if (key === 'parent' || key === 'loc' || key === 'range') continue;
		const child = (node as unknown as Record<string, unknown>)[key];
		const children = Array.isArray(child) ? child : [child];
		for (const item of children) {
			if (
				item &&
				typeof item === 'object' &&
				typeof (item as { type?: unknown }).type === 'string'
			) {
				if (walk(item as TSESTree.Node, visit)) return true;
			}
		}
	}
	return false;
}

/** Whether the program imports (or requires) one of `modules`. */
export function programImportsModule(
	program: TSESTree.Program,
	modules: readonly string[],
): boolean {
	return walk(program, (node) => {
		if (
			node.type === AST_NODE_TYPES.ImportDeclaration ||
			node.type === AST_NODE_TYPES.ExportAllDeclaration
		) {
			return modules.some(
				(name) => node.source.value === name || node.source.value.startsWith(`${name}/`),
			);
		}
		if (
			node.type === AST_NODE_TYPES.CallExpression &&
			node.callee.type === AST_NODE_TYPES.Identifier &&
			node.callee.name === 'require'
		) {
			const name = getStringLiteralValue(node.arguments[0]);
			return (
				name !== null && modules.some((module) => name === module || name.startsWith(`${module}/`))
			);
		}
		return false;
	});
}

function parseFile(path: string): TSESTree.Program | null {
	try {
		return parse(readFileSync(path, 'utf8'), { loc: false, range: true, jsx: false });
	} catch {
		return null;
	}
}

export function fileImportsModule(path: string, modules: readonly string[]): boolean {
	const program = parseFile(path);
	return program !== null && programImportsModule(program, modules);
}

/** Whether a .node.ts file's node class sets `description.codex` inline (then n8n ignores the .node.json codex). */
export function fileHasInlineDescriptionCodex(path: string): boolean {
	const program = parseFile(path);
	if (!program) return false;
	return walk(program, (node) => {
		if (node.type !== AST_NODE_TYPES.ClassDeclaration || !isNodeTypeClass(node)) return false;
		const description = findNodeDescriptionObject(node);
		return description !== null && findObjectProperty(description, 'codex') !== null;
	});
}
