import { sharedFixture } from './fixture';

describe('operation router', () => {
	const fixture = sharedFixture();

	it.each([
		// n8n drops an operation no property offers for that resource, so the node sees none at all.
		[
			'an unknown operation under Campaign',
			{ resource: 'campaign', operation: 'broadcast' },
			'broadcast',
		],
		['an unknown resource', { resource: 'contact', operation: 'send' }, ''],
	])(
		'refuses %s and sends nothing (no fall-through to a paid send)',
		async (_name, selection, seen) => {
			const f = fixture();
			const result = await f.run({
				...selection,
				from: 'Phonovation',
				text: 'Hi',
				recipients: '0871234567',
			});
			expect(result.error?.message).toBe(
				`Unsupported operation "${seen}" for resource "${selection.resource}"`,
			);
			expect(f.sim.requests).toHaveLength(0);
		},
	);
});
