import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { sourcesUnder } from '../harness/sources';

const ROOT = join(__dirname, '../..');

/** The files of nodes/ and credentials/ each file imports (type-only imports and re-exports too). */
function importGraph(): Map<string, string[]> {
	const files = [...sourcesUnder(join(ROOT, 'nodes')), ...sourcesUnder(join(ROOT, 'credentials'))];
	return new Map(
		files.map((file) => {
			const targets = [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)]
				.map(([, spec]) => join(dirname(file), spec))
				.flatMap((base) => [`${base}.ts`, join(base, 'index.ts')].filter((t) => existsSync(t)));
			return [file, targets];
		}),
	);
}

/** Every circle of imports, each as the files on it in order (starting from its first found). */
function circles(graph: Map<string, string[]>): string[][] {
	const found: string[][] = [];
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		path.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open') found.push(path.slice(path.indexOf(next)));
			else if (!state.has(next)) visit(next);
		}
		path.pop();
		state.set(file, 'done');
	};
	for (const file of graph.keys()) if (!state.has(file)) visit(file);
	return found.map((circle) => circle.map((file) => relative(ROOT, file)));
}

describe('the imports of nodes/ and credentials/', () => {
	it('form no circle: following the calls from an operation to the provider never comes back to a file', () => {
		expect(circles(importGraph())).toEqual([]);
	});

	it('the check finds a circle where there is one', () => {
		const graph = new Map([
			['a.ts', ['b.ts']],
			['b.ts', ['c.ts']],
			['c.ts', ['a.ts']],
			['d.ts', ['a.ts']],
		]);
		expect(circles(graph).map((c) => c.map((f) => f.split('/').pop()))).toEqual([
			['a.ts', 'b.ts', 'c.ts'],
		]);
	});

	it('the graph holds the imports as written: `export … from` and `import type` are edges too', () => {
		const graph = importGraph();
		const edges = (file: string) =>
			(graph.get(join(ROOT, file)) ?? []).map((target) => relative(ROOT, target));
		const pipeline = 'nodes/Phonovation/resources/campaign/pipeline';
		expect(edges(`${pipeline}/sharedWithLegacySend.ts`)).toContain(`${pipeline}/plan.ts`);
		expect(edges(`${pipeline}/posting.ts`)).toContain(`${pipeline}/ledger.ts`);
	});
});
