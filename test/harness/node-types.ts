import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

/** The node-type registry n8n builds from installed packages, here from classes in hand. */
export class NodeTypeRegistry implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	constructor(types: Record<string, INodeType | IVersionedNodeType>) {
		for (const [name, type] of Object.entries(types)) this.types.set(name, type);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}
