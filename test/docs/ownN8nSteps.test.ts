// The docs' own-n8n set-up stays short, and says what the e2e test (test/e2e/own-n8n.test.ts) does.
import { readFileSync } from 'fs';
import { join } from 'path';

const DOC = readFileSync(join(__dirname, '..', '..', 'docs', 'conversations.md'), 'utf8');

/** The numbered steps of one section, each as its first line. */
function stepsOf(markdown: string, heading: string): string[] {
	const start = markdown.indexOf(`## ${heading}\n`);
	if (start < 0) return [];
	const section = markdown.slice(start + heading.length + 4).split(/\n## /)[0];
	return section.match(/^\d+\. .*$/gm) ?? [];
}

describe('docs/conversations.md: On your own n8n, step by step', () => {
	const steps = stepsOf(DOC, 'On your own n8n, step by step');

	it('has at most six steps, numbered in order', () => {
		expect(steps.length).toBeGreaterThan(0);
		expect(steps.length).toBeLessThanOrEqual(6);
		expect(steps.map((step) => Number(step.split('.')[0]))).toEqual(steps.map((_, i) => i + 1));
	});

	it('imports one workflow and creates no Data Table by hand', () => {
		expect(steps.filter((step) => /import/i.test(step))).toHaveLength(1);
		expect(steps.join('\n')).not.toMatch(/create .*Data Table/i);
	});

	it('a section with more steps is caught (the check can fail)', () => {
		const seven = Array.from({ length: 7 }, (_, i) => `${i + 1}. Step.`).join('\n');
		expect(stepsOf(`## Long\n\n${seven}\n`, 'Long')).toHaveLength(7);
	});
});
