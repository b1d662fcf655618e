import type { SimulatorConfig } from './config';

/** Phonovation credential fields that point every URL at a simulator, with its account and relay secret. */
export function simulatorCredentialData(
	sim: { url: string; config: SimulatorConfig },
	overrides: Record<string, string> = {},
) {
	return {
		username: sim.config.username,
		password: sim.config.password,
		relaySecret: sim.config.relaySecret,
		apiId: sim.config.apiId,
		authUrl: sim.url,
		baseUrl: sim.url,
		legacyBaseUrl: `${sim.url}/api/v1`,
		...overrides,
	};
}
