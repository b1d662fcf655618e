import type { CampaignSettings, PlannedRecipient } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/plan';
import { batchLabel, CAMPAIGN_PATH, requestBody } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/requestBody';

const settings: CampaignSettings = {
	from: 'Phonovation',
	text: 'Hello "there"\nBye',
	campaignName: '',
	sendAt: null,
	dryRun: false,
	batchSize: 400_000,
	timeoutMs: 120_000,
};

const recipient = (msisdn: string, notifyId: string | null = null): PlannedRecipient => ({ input: msisdn, msisdn, notifyId });
const parsed = (body: Buffer) => JSON.parse(body.toString('utf8')) as Record<string, unknown>;

describe('campaign request body (spec §2.2)', () => {
	it('posts to the V2 Campaign endpoint', () => {
		expect(CAMPAIGN_PATH).toBe('/api/v2/Campaign');
	});

	it('carries text, sender and each recipient, with a notifyId only where there is one', () => {
		const body = requestBody(settings, [recipient('353871234567'), recipient('353861234567', 'order "7"')]);
		expect(parsed(body)).toEqual({
			text: 'Hello "there"\nBye',
			from: 'Phonovation',
			recipientInfo: [{ msisdn: '353871234567' }, { msisdn: '353861234567', notifyId: 'order "7"' }],
		});
	});

	it('adds the campaign name and sendAt when they are set', () => {
		const body = requestBody({ ...settings, campaignName: 'Spring', sendAt: '2030-06-01T09:00Z' }, [recipient('353871234567')]);
		expect(parsed(body)).toEqual({
			text: settings.text,
			from: 'Phonovation',
			campaignName: 'Spring',
			sendAt: '2030-06-01T09:00Z',
			recipientInfo: [{ msisdn: '353871234567' }],
		});
	});

	it('is valid JSON with no recipients', () => {
		expect(parsed(requestBody(settings, []))).toMatchObject({ recipientInfo: [] });
	});

	it('keeps every recipient, in order, in a body far larger than one written chunk', () => {
		const batch = Array.from({ length: 10_000 }, (_, i) => recipient(`3538${String(i).padStart(8, '0')}`, i % 2 ? `n${i}` : null));
		const body = parsed(requestBody(settings, batch));
		const info = body.recipientInfo as Array<{ msisdn: string; notifyId?: string }>;
		expect(info).toHaveLength(10_000);
		expect(info[0]).toEqual({ msisdn: '353800000000' });
		expect(info[9_999]).toEqual({ msisdn: '353800009999', notifyId: 'n9999' });
		expect(info.map((entry) => entry.msisdn)).toEqual(batch.map((entry) => entry.msisdn));
	});
});

describe('batch label', () => {
	it('names the batch only when a campaign has several', () => {
		expect(batchLabel(0, 1)).toBe('');
		expect(batchLabel(0, 3)).toBe(' (batch 1 of 3)');
		expect(batchLabel(2, 3)).toBe(' (batch 3 of 3)');
	});
});
