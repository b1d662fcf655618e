import { readFileSync } from 'node:fs';
import path from 'node:path';

import { fetch } from 'undici';

import { TYPES, useE2eEnvironment } from './support/environment';
import { REPO_ROOT } from './support/paths';

const packageJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
};

/**
 * The packed package installed like a user installs it (into ~/.n8n/nodes) in a real n8n 2.41:
 * n8n must load it as a community package and serve its types to the editor.
 */
describe('n8n-nodes-phonovation as a community package in n8n 2.41', () => {
	const suite = useE2eEnvironment();

	suite.it(
		'is installed from the packed tarball into the user folder’s nodes directory',
		async ({ n8n }) => {
			const installed = JSON.parse(
				readFileSync(
					path.join(
						n8n.userFolder,
						'.n8n',
						'nodes',
						'node_modules',
						packageJson.name,
						'package.json',
					),
					'utf8',
				),
			) as { version: string; files?: string[]; n8n: { nodes: string[]; credentials: string[] } };
			expect(installed.version).toBe(packageJson.version);
			for (const file of [...installed.n8n.nodes, ...installed.n8n.credentials]) {
				const full = path.join(
					n8n.userFolder,
					'.n8n',
					'nodes',
					'node_modules',
					packageJson.name,
					file,
				);
				expect(() => readFileSync(full)).not.toThrow();
			}
		},
	);

	suite.it('n8n serves the Phonovation API credential type to the editor', async ({ client }) => {
		expect(await client.credentialTypeNames()).toContain(TYPES.credential);
	});

	suite.it(
		'n8n serves the action and trigger node types under the package’s name',
		async ({ client }) => {
			const names = await client.nodeTypeNames();
			expect(names).toEqual(expect.arrayContaining([TYPES.action, TYPES.trigger]));

			const action = await client.nodeType(TYPES.action);
			expect(action).toMatchObject({
				displayName: 'Phonovation',
				credentials: [{ name: TYPES.credential, required: true }],
				codex: { categories: ['Communication'] },
			});
			expect(action.communityNodePackageVersion).toBe(packageJson.version);

			const trigger = await client.nodeType(TYPES.trigger);
			expect(trigger).toMatchObject({
				displayName: 'Phonovation Trigger',
				group: ['trigger'],
				codex: { categories: ['Communication'] },
				webhooks: [expect.objectContaining({ httpMethod: 'POST' })],
			});
		},
	);

	suite.it('the node icons are served from the installed package', async ({ client, n8n }) => {
		const action = await client.nodeType(TYPES.action);
		const icons = action.iconUrl as { light: string; dark: string };
		for (const iconPath of [icons.light, icons.dark]) {
			const response = await fetch(`${n8n.url}/${iconPath}`);
			expect(response.status).toBe(200);
			expect(await response.text()).toContain('<svg');
		}
		expect(icons.light).not.toBe(icons.dark);
	});
});
