import http from 'node:http';
import path from 'node:path';

import { itemsOf, phonovationFixture, type PhonovationFixture } from '../../../fixture';

const NODES = path.join(__dirname, '../../../../../../nodes/');
const CAMPAIGN = '/api/v2/Campaign';

/** Our source files on the stack, innermost first, as a stack trace names them (async frames too). */
function ourFiles(stack: string): string[] {
	return [...stack.matchAll(/\(?(\/[^():\s]+\.ts):\d+:\d+\)?/g)]
		.map((match) => match[1])
		.filter((file) => file.startsWith(NODES))
		.map((file) => path.relative(NODES, file));
}

/** Files entered again after the walk had left them for another: `a → b → a` names `a`. */
function reentered(files: string[]): string[] {
	const left = new Set<string>();
	const again = new Set<string>();
	files.forEach((file, i) => {
		if (left.has(file)) again.add(file);
		if (i > 0 && files[i - 1] !== file) left.add(files[i - 1]);
	});
	return [...again];
}

describe("a campaign's text from Send to the provider's request goes one way", () => {
	let f: PhonovationFixture;
	const stacks: string[] = [];
	const request = http.request;
	beforeAll(async () => {
		f = await phonovationFixture();
		// Only watches: the request goes out unchanged.
		(http as { request: typeof http.request }).request = ((
			...args: Parameters<typeof http.request>
		) => {
			const [options] = args;
			const where = typeof options === 'object' && 'path' in options ? options.path : options;
			if (String(where).includes(CAMPAIGN)) stacks.push(new Error('walk').stack ?? '');
			return request(...args);
		}) as typeof http.request;
	});
	afterAll(async () => {
		(http as { request: typeof http.request }).request = request;
		await f.stop();
	});

	it('the calls from the node to the request enter no file of ours again after leaving it', async () => {
		Error.stackTraceLimit = 200;
		const result = await f.run(
			{
				resource: 'campaign',
				operation: 'send',
				from: 'Phonovation',
				text: 'Hi',
				recipients: '={{ $json.phone }}',
				options: { optOutText: 'Reply STOP to 50123 to opt out', maxParts: 2 },
			},
			itemsOf(2, (i) => ({ phone: `08712345${10 + i}` })),
		);
		expect(result.error).toBeUndefined();
		expect(stacks).toHaveLength(1);
		const files = ourFiles(stacks[0]).reverse();
		expect(files[0]).toBe('Phonovation/Phonovation.node.ts');
		expect(files.at(-1)).toBe('Phonovation/transport/request.ts');
		expect(files).toContain('Phonovation/resources/campaign/pipeline/post.ts');
		expect(reentered(files)).toEqual([]);
	});

	it('tells a walk that comes back to a file it left (the check can fail)', () => {
		expect(reentered(['run.ts', 'run.ts', 'dispatch.ts', 'post.ts'])).toEqual([]);
		expect(reentered(['post.ts', 'writeAhead.ts', 'post.ts', 'writeAhead.ts'])).toEqual([
			'post.ts',
			'writeAhead.ts',
		]);
	});
});
