/** lint/plugin.ts: every ported rule is registered and enabled in the local recommended config. */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

import { localPlugin, NAMESPACE, rules } from '../../lint/plugin';

describe('local community-nodes plugin', () => {
	it('registers every rule file under its upstream name and enables it', () => {
		const files = readdirSync(path.join(__dirname, '..', '..', 'lint', 'rules')).map((file) =>
			file.replace(/\.ts$/, ''),
		);
		expect(Object.keys(rules).sort()).toEqual(files.sort());
		for (const [name, rule] of Object.entries(rules)) {
			expect(rule.meta.docs?.description).toBeTruthy();
			expect(localPlugin.configs.recommended.rules[`${NAMESPACE}/${name}`]).toMatch(
				/^(error|warn)$/,
			);
		}
		expect(localPlugin.configs.recommended.plugins[NAMESPACE]).toBe(localPlugin);
	});
});
