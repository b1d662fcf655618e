import { useE2eEnvironment, type E2eEnvironment } from './support/environment';
import { nodeError, nodeOutput } from './support/n8n-client';
import { chain, code, manualTrigger, phonovation } from './support/workflow-builder';

const CAMPAIGN = '/api/v2/Campaign';
type Json = Record<string, any>;
const itemsCode = (items: unknown[]) =>
	`return ${JSON.stringify(items)}.map((json) => ({ json }));`;

async function run(
	env: E2eEnvironment,
	name: string,
	items: unknown[],
	parameters: Json,
	settings: Json = {},
) {
	const node = {
		...phonovation('Send', {
			resource: 'campaign',
			operation: 'send',
			from: 'Phonovation',
			...parameters,
		}),
		...settings,
	};
	// An opt-out list another node gives, for Exclude Numbers to read as whole items.
	const optedOut = code(
		'Opted-Out',
		itemsCode([
			{ phone: '0871000002', optedOutAt: '2030-01-01T10:00:00Z' },
			{ phone: '0871000004' },
		]),
	);
	const workflow = await env.importWorkflow(
		chain(name, [manualTrigger(), optedOut, code('Rows', itemsCode(items)), node]),
	);
	env.sim.reset();
	return await env.client.runAndWait(workflow.id, 'Manual Trigger');
}

/** Recipients a user can trust, in a real n8n. */
describe('recipients in n8n', () => {
	const suite = useE2eEnvironment();

	suite.it(
		'an opt-out list whose leading zeros a spreadsheet dropped still excludes those numbers',
		async (env) => {
			const execution = await run(
				env,
				'Lost zeros',
				[{ phone: '0871234567' }, { phone: '0861234567' }, { phone: '0851234567' }],
				{
					text: 'Spring sale',
					recipients: '={{ $json.phone }}',
					options: { excludeNumbers: '={{ [871234567, 861234567] }}' },
				},
			);
			expect(execution.status).toBe('success');
			expect(env.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
				[{ msisdn: '353851234567' }],
			]);
			const out = nodeOutput(execution, 'Send') as Json[];
			expect(out.map((o) => o.recipients[0].status)).toEqual(['excluded', 'excluded', 'accepted']);
		},
	);

	// Each shape excludes 0871000002 (a recipient) and 0871000004 (not one).
	for (const [shape, excludeNumbers] of [
		["whole n8n items of another node ($('Opted-Out').all())", "={{ $('Opted-Out').all() }}"],
		['a space-joined string', '0871000002 0871000004'],
		['tel: URIs', 'tel:+353-87-100-0002, tel:+353871000004;ext=1'],
		['spreadsheet floats as text', "={{ ['353871000002.0', '353871000004.0'] }}"],
		['a spreadsheet float as a number', '={{ [353871000002, 353871000004] }}'],
	]) {
		suite.it(`Exclude Numbers given ${shape}: the excluded number is not texted`, async (env) => {
			const execution = await run(
				env,
				`Exclude as ${shape}`,
				[{ phones: '0871000001, 0871000002, 0871000003' }],
				{
					text: 'Your order shipped',
					recipients: '={{ $json.phones }}',
					options: { excludeNumbers, messageType: 'transactional' },
				},
			);
			expect(execution.status).toBe('success');
			expect(env.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
				[{ msisdn: '353871000001' }, { msisdn: '353871000003' }],
			]);
			const [out] = nodeOutput(execution, 'Send') as Json[];
			expect(out.recipients.map((r: Json) => r.status)).toEqual([
				'accepted',
				'excluded',
				'accepted',
			]);
		});
	}

	suite.it(
		'an Exclude Numbers entry it cannot read stops the run before anything is posted, naming the entry',
		async (env) => {
			const execution = await run(env, 'Unreadable exclusion', [{ phone: '0871000001' }], {
				text: 'Your order shipped',
				recipients: '={{ $json.phone }}',
				options: { excludeNumbers: '0871000002, unsubscribed', messageType: 'transactional' },
			});
			expect(execution.status).toBe('error');
			expect(nodeError(execution, 'Send')?.message).toMatch(
				/^Exclude Numbers: 1 entry cannot be read as a phone number .*"unsubscribed": contains letters/,
			);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(0);
		},
	);

	suite.it(
		'Default Country Code 35 (no country has it) is an error naming the option; 087… never goes to +358',
		async (env) => {
			const execution = await run(env, 'Country code 35', [{ phone: '0871000001' }], {
				text: 'Your order shipped',
				recipients: '={{ $json.phone }}',
				options: { defaultCountryCode: '35', messageType: 'transactional' },
			});
			expect(execution.status).toBe('error');
			expect(nodeError(execution, 'Send')?.message).toBe(
				'Default Country Code "35" is not a country calling code (ITU-T E.164), e.g. 353 for Ireland or 44 for the UK (item 0)',
			);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(0);
		},
	);

	suite.it(
		'Continue On Fail: two good rows are sent around a bad one, which becomes an error item',
		async (env) => {
			const execution = await run(
				env,
				'Bad row in the middle',
				[
					{ phone: '0871000001', ref: 'order-1' },
					{ phone: '0871000002', ref: 'x'.repeat(31) },
					{ phone: '0871000003', ref: 'order-3' },
				],
				{
					text: 'Your order shipped',
					recipients: '={{ $json.phone }}',
					options: { notifyId: '={{ $json.ref }}' },
				},
				{ onError: 'continueErrorOutput' },
			);
			expect(execution.status).toBe('success');
			expect(env.sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([
				[
					{ msisdn: '353871000001', notifyId: 'order-1' },
					{ msisdn: '353871000003', notifyId: 'order-3' },
				],
			]);
			expect(
				(nodeOutput(execution, 'Send', 0) as Json[]).map((o) => o.recipients[0].status),
			).toEqual(['accepted', 'accepted']);
			const errors = nodeOutput(execution, 'Send', 1) as Json[];
			expect(errors).toHaveLength(1);
			expect(errors[0].error).toBe(
				'Notify ID is too long: 31 characters, the limit is 30 (item 1)',
			);
		},
	);

	suite.it(
		'a dry run flags a sender the account has not approved, and posts no campaign',
		async (env) => {
			const execution = await run(env, 'Dry run, wrong sender', [{ phone: '0871234567' }], {
				from: 'NotOurSender',
				text: 'Hello',
				recipients: '={{ $json.phone }}',
				options: { dryRun: true },
			});
			expect(execution.status).toBe('error');
			expect(nodeError(execution, 'Send')?.message).toMatch(
				/Sender ID "NotOurSender" is not approved on this account/,
			);
			expect(env.sim.count('POST', CAMPAIGN)).toBe(0);
			expect(env.sim.count('GET', '/api/v2/senderlist')).toBe(1);
		},
	);
});
