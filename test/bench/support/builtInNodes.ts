import path from 'node:path';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { ensureN8nInstalled } from '../../e2e/support/install';

/** n8n's own node types, under the names n8n registers them with, as the bench uses them. */
export const BUILT_IN = {
	set: { type: 'n8n-nodes-base.set', version: 3.4, file: 'Set/Set.node.js', exportName: 'Set' },
	aggregate: {
		type: 'n8n-nodes-base.aggregate',
		version: 1,
		file: 'Transform/Aggregate/Aggregate.node.js',
		exportName: 'Aggregate',
	},
	httpRequest: {
		type: 'n8n-nodes-base.httpRequest',
		version: 4.2,
		file: 'HttpRequest/HttpRequest.node.js',
		exportName: 'HttpRequest',
	},
	merge: {
		type: 'n8n-nodes-base.merge',
		version: 3.2,
		file: 'Merge/Merge.node.js',
		exportName: 'Merge',
	},
	noOp: { type: 'n8n-nodes-base.noOp', version: 1, file: 'NoOp/NoOp.node.js', exportName: 'NoOp' },
} as const;

export type BuiltInName = keyof typeof BUILT_IN;

/**
 * Loads Set, Aggregate, HTTP Request and Merge from n8n-nodes-base of the real n8n install the
 * e2e suite uses (installed on first use, then cached), ready to register in an Engine next to
 * our node. They run on the repository's n8n-core, the same version that install pins.
 */
export async function loadBuiltInNodes(
	log: (line: string) => void = () => {},
): Promise<Record<string, INodeType | IVersionedNodeType>> {
	const install = await ensureN8nInstalled({ log });
	const nodesDir = path.join(install.dir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes');
	const types: Record<string, INodeType | IVersionedNodeType> = {};
	for (const { type, file, exportName } of Object.values(BUILT_IN)) {
		const exported = require(path.join(nodesDir, file)) as Record<
			string,
			new () => INodeType | IVersionedNodeType
		>;
		const NodeClass = exported[exportName];
		if (typeof NodeClass !== 'function') throw new Error(`${file} does not export ${exportName}`);
		types[type] = new NodeClass();
	}
	return types;
}
