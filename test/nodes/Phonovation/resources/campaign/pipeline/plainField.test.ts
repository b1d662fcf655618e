import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	plainFieldPath,
	readField,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/plainField';
import { Engine } from '../../../../../harness/engine';

const EXPRESSIONS = [
	'={{ $json.phone }}',
	'={{$json.phone}}',
	'={{ $json["phone"] }}',
	"={{ $json['first name'] }}",
	'={{ $json.contact.phone }}',
	'={{ $json["contact"]["phone"] }}',
	'={{ $json.list }}',
	'={{ $json.missing }}',
	'={{ $json.missing.deeper }}',
	'={{ $json.nothing }}',
	'={{ $json.count }}',
	'={{ $json.flag }}',
	'={{ $json.text.length }}',
];

/** Echoes what n8n's own engine makes of each expression, for each item. */
class ParameterEcho implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Parameter Echo',
		name: 'parameterEcho',
		group: ['transform'],
		version: 1,
		description: 'Test-only node',
		defaults: { name: 'Parameter Echo' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: EXPRESSIONS.map((_, i) => ({
			displayName: `P${i}`,
			name: `p${i}`,
			type: 'string' as const,
			default: '',
		})),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, item) => ({
				json: {
					values: EXPRESSIONS.map((__, i) => this.getNodeParameter(`p${i}`, item, '') ?? null),
				},
			})),
		];
	}
}

const ODD_ITEMS = [
	{
		phone: '0871234567',
		'first name': 'Aoife',
		contact: { phone: 871234567 },
		list: ['0871', 353861234567],
		count: 0,
		flag: false,
		text: 'héllo',
	},
	{
		phone: 353871234567,
		'first name': '',
		contact: null,
		list: [],
		nothing: null,
		count: 12.5,
		flag: true,
		text: '',
	},
	{
		phone: ['0871234567', '0861234567'],
		contact: { phone: { nested: true } },
		nothing: '',
		text: 'x',
	},
	{ phone: null, contact: 'a string', list: [[1], { a: 1 }], count: -1 },
	{},
];

describe('plain $json fields read directly give what n8n gives', () => {
	it('recognises only the plain forms', () => {
		expect(plainFieldPath('={{ $json.phone }}')).toEqual(['phone']);
		expect(plainFieldPath('={{ $json["first name"] }}')).toEqual(['first name']);
		expect(plainFieldPath('={{ $json.contact.phone }}')).toEqual(['contact', 'phone']);
		for (const other of [
			'={{ $json.phone.trim() }}',
			'={{ $json.phone }} ',
			'=+{{ $json.phone }}',
			'={{ $json["a" + "b"] }}',
			'0871234567',
			'={{ $json.__proto__ }}',
			"={{ $('X').item.json.phone }}",
		]) {
			expect(plainFieldPath(other)).toBeNull();
		}
	});

	it('on numbers, arrays, null, missing, nested fields and keys with spaces', async () => {
		const engine = new Engine({
			nodeTypes: { 'test.parameterEcho': new ParameterEcho() },
			credentialTypes: [],
		});
		const parameters = Object.fromEntries(EXPRESSIONS.map((e, i) => [`p${i}`, e]));
		const node = {
			id: 'echo',
			name: 'Echo',
			type: 'test.parameterEcho',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters,
		};
		const result = await engine.runNode(
			node,
			ODD_ITEMS.map((json) => ({ json })),
		);
		expect(result.error).toBeUndefined();
		const fromN8n = result.items.map((i) => (i.json as { values: unknown[] }).values);
		const direct = ODD_ITEMS.map((json) =>
			EXPRESSIONS.map((e) => {
				const path = plainFieldPath(e);
				return path ? (readField(json, path) ?? null) : 'not plain';
			}),
		);
		// `.length` is a property read n8n evaluates; the direct path never claims it.
		const plain = EXPRESSIONS.map((e) => plainFieldPath(e) !== null);
		const keep = (rows: unknown[][]) => rows.map((row) => row.filter((_, i) => plain[i]));
		expect(keep(direct)).toEqual(keep(fromN8n));
	});
});
