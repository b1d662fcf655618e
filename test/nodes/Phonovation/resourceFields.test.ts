import { type INodeParameters, type INodeProperties, NodeHelpers } from 'n8n-workflow';

import { Phonovation } from '../../../nodes/Phonovation/Phonovation.node';
import { docsLinkProblem } from '../../docs/repositoryLinks';

const description = new Phonovation().description;
const property = (name: string) => description.properties.find((p) => p.name === name)!;

/** Every resource and operation the panel offers. */
const operations = (property('resource').options as Array<{ value: string }>).flatMap(
	({ value: resource }) =>
		description.properties
			.filter(
				(p) =>
					p.name === 'operation' &&
					(p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource),
			)
			.flatMap((p) =>
				(p.options as Array<{ value: string; name: string }>).map(
					(o) => [resource, o.value, o.name] as const,
				),
			),
);

const shownDocs = (parameters: INodeParameters): INodeProperties[] =>
	description.properties.filter(
		(p) =>
			p.name === 'operationDocs' && NodeHelpers.displayParameter(parameters, p, null, description),
	);

describe("each operation's panel links to its own docs", () => {
	it('there are the thirteen operations the README lists', () => {
		expect(operations).toHaveLength(13);
	});

	it.each(operations)(
		'%s › %s: one link, to a heading of this repository that exists',
		(resource, operation, name) => {
			const shown = shownDocs({ resource, operation });
			expect(shown).toHaveLength(1);
			expect(shown[0].displayName).toMatch(
				new RegExp(`^How ${name} works: <a href="[^"]+" target="_blank">`),
			);
			const href = /href="([^"]+)"/.exec(shown[0].displayName)![1];
			expect(docsLinkProblem(href)).toBeUndefined();
		},
	);
});
