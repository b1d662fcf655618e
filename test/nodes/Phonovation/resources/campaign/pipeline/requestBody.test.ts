import {
	optionSettings,
	readOptions,
} from '../../../../../../nodes/Phonovation/resources/campaign/options';
import type { CampaignSettings } from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/plan';
import {
	batchLabel,
	ByteWriter,
	CAMPAIGN_PATH,
	requestBody as bodyOfBatch,
} from '../../../../../../nodes/Phonovation/resources/campaign/pipeline/requestBody';

import { batchOf } from './records';

const SETTINGS: CampaignSettings = {
	from: 'Phonovation',
	text: 'Say "hi" \\ bye\n¬ 😀',
	sendAt: '2026-03-01T09:00Z',
	options: readOptions({ campaignName: 'Spring' }).values,
	given: optionSettings(readOptions({ campaignName: 'Spring' }).values),
	perRequest: 400_000,
	timeoutMs: 30_000,
	rehearsal: false,
};

interface Recipient {
	msisdn: string;
	notifyId: string | null;
}

const recipient = (msisdn: string, notifyId: string | null): Recipient => ({ msisdn, notifyId });

const requestBody = (settings: CampaignSettings, batch: Recipient[]) =>
	bodyOfBatch(settings, batchOf(batch));

/** The body as docs/provider-api.md#campaign-request describes it, serialised by JSON.stringify: the oracle. */
function expected(settings: CampaignSettings, batch: Recipient[]): string {
	const body: Record<string, unknown> = { text: settings.text, from: settings.from };
	if (settings.options.campaignName) body.campaignName = settings.options.campaignName;
	if (settings.sendAt) body.sendAt = settings.sendAt;
	body.recipientInfo = batch.map((r) =>
		r.notifyId ? { msisdn: r.msisdn, notifyId: r.notifyId } : { msisdn: r.msisdn },
	);
	return JSON.stringify(body);
}

describe('the campaign request body (docs/provider-api.md#msisdn-rules)', () => {
	it('posts to the V2 Campaign endpoint', () => {
		expect(CAMPAIGN_PATH).toBe('/api/v2/Campaign');
	});

	it('is byte for byte what JSON.stringify makes of it, for Notify IDs with quotes, backslashes, control characters, emoji and lone surrogates', () => {
		const awkward = [
			'say "hi"',
			'back\\slash',
			'tab\there\u0001',
			'fada á 😀',
			'lone \ud800 half',
			'</script>',
			null,
			'',
		];
		const batch = awkward.map((id, i) => recipient(`35387100000${i}`, id));
		expect(requestBody(SETTINGS, batch).toString('utf8')).toBe(expected(SETTINGS, batch));
	});

	it('leaves out campaign name and send time when they are not set', () => {
		const settings = { ...SETTINGS, options: readOptions({}).values, sendAt: null };
		const batch = [recipient('353871000000', null)];
		expect(JSON.parse(requestBody(settings, batch).toString('utf8'))).toEqual({
			text: SETTINGS.text,
			from: 'Phonovation',
			recipientInfo: [{ msisdn: '353871000000' }],
		});
	});

	it('stays exact when the Notify IDs are far longer than the buffer first assumed', () => {
		// 30 control characters escape to 180 bytes each: the buffer must grow several times.
		const batch = Array.from({ length: 5_000 }, (_, i) =>
			recipient(`3538710${String(i).padStart(5, '0')}`, `\u0001`.repeat(29) + (i % 10)),
		);
		const body = requestBody(SETTINGS, batch);
		expect(body.toString('utf8')).toBe(expected(SETTINGS, batch));
		expect(body.length).toBe(Buffer.byteLength(expected(SETTINGS, batch)));
	});

	it('stays exact when one piece (a long text full of escapes) is bigger than twice the first buffer', () => {
		const settings = { ...SETTINGS, text: '\u0001'.repeat(2_000) };
		expect(requestBody(settings, []).toString('utf8')).toBe(expected(settings, []));
	});

	it('an empty batch is still valid JSON', () => {
		expect(JSON.parse(requestBody(SETTINGS, []).toString('utf8')).recipientInfo).toEqual([]);
	});

	it('keeps every recipient, in order, in a body far larger than its first buffer', () => {
		const batch = Array.from({ length: 10_000 }, (_, i) =>
			recipient(`3538${String(i).padStart(8, '0')}`, i % 2 ? `n${i}` : null),
		);
		const info = JSON.parse(requestBody(SETTINGS, batch).toString('utf8')).recipientInfo as Array<{
			msisdn: string;
			notifyId?: string;
		}>;
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

describe('the campaign request body, Notify IDs written without JSON.stringify', () => {
	it('stays exact when plain and escaped Notify IDs alternate, repeat and follow each other', () => {
		const ids = [
			'plain',
			'plain',
			'q"uote',
			'q"uote',
			'plain',
			'ctl\u0001',
			'fada á',
			'😀',
			'plain',
			null,
			'x',
		];
		const batch = ids.map((id, i) => recipient(`35387100000${i % 10}`, id));
		expect(requestBody(SETTINGS, batch).toString('utf8')).toBe(expected(SETTINGS, batch));
	});
});

describe('ByteWriter', () => {
	it('writes whole numbers in decimal and ASCII text as String() and the text would', () => {
		const out = new ByteWriter(1);
		for (const n of [0, 7, 10, 99, 100, 12345, 2_147_483_647]) {
			out.decimal(n);
			out.ascii(':');
		}
		expect(out.done().toString('latin1')).toBe('0:7:10:99:100:12345:2147483647:');
	});
});
