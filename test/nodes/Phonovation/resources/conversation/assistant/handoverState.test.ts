import {
	asksForPerson,
	DEFAULT_HANDOVER_WORDS,
	handedOverAt,
	handoverRefusal,
	handoverRow,
	sentReplies,
	STAFF,
} from '../../../../../../nodes/Phonovation/resources/conversation/assistant/handoverState';
import { disclosureDue } from '../../../../../../nodes/Phonovation/resources/conversation/assistant/disclosure';
import { historyOf } from '../../../../../../nodes/Phonovation/resources/conversation/assistant/history';
import type { LoggedMessage } from '../../../../../../nodes/Phonovation/resources/conversation/assistant/messages';

const ANNA = '353871234567';
const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
let seq = 0;
const row = (
	kind: LoggedMessage['kind'],
	minutes: number,
	extra: Partial<LoggedMessage> = {},
): LoggedMessage => ({
	kind,
	phone: ANNA,
	key: `${kind}:${minutes}`,
	text: `${kind} at ${minutes}`,
	at: at(minutes),
	arrivedAt: '',
	id: `${kind}:${minutes}:${++seq}`,
	turn: '',
	seq: ++seq,
	...extra,
});
const handover = (minutes: number, untilMinutes: number, answers = '') => ({
	...handoverRow(
		{ phone: ANNA, at: at(minutes), id: `handover:${minutes}` },
		{ until: at(untilMinutes), longcode: '353851234567', by: 'person', answers },
	),
	seq: ++seq,
});

describe('Hand-over: who asked, until when the assistant stays quiet, who may still write', () => {
	it.each([
		['can I talk to a person', true],
		['Can I TALK TO A PERSON please?', true],
		['I want to speak to someone!', true],
		['is this a real person?', true],
		['can I speak with someone?', true],
		['I want a real human', true],
		['my tour operator cancelled', false],
		['it was a human error', false],
		['Hi, move me to Friday', false],
		['a personal matter', false],
		['humane society', false],
	])('the default words: %j asks for a person: %s', (text, asks) => {
		expect(asksForPerson(DEFAULT_HANDOVER_WORDS)(text)).toBe(asks);
	});

	it('no words never asks', () => {
		expect(asksForPerson('')('talk to a person')).toBe(false);
		expect(asksForPerson(' , ')('talk to a person')).toBe(false);
	});

	it('a hand-over holds until its time or until a hand-back, whichever comes first', () => {
		const over = handover(0, 60);
		expect(handedOverAt([over], { phone: ANNA, at: at(30) })).toMatchObject({ until: at(60) });
		expect(handedOverAt([over], { phone: ANNA, at: at(61) })).toBeUndefined();
		expect(handedOverAt([over], { phone: '353861234599', at: at(30) })).toBeUndefined();
		const back = handover(10, 10);
		expect(handedOverAt([over, back], { phone: ANNA, at: at(30) })).toBeUndefined();
		// A hand-back written before the hand-over (log order) does not end it.
		expect(handedOverAt([back, handover(20, 60)], { phone: ANNA, at: at(30) })).toBeDefined();
	});

	it('a row any workflow wrote cannot silence a number for longer than a day, nor from the future', () => {
		const forged = (at: string, until: string) => ({
			...row('handover', 0),
			at,
			text: JSON.stringify({ until, longcode: '', by: 'person', answers: '' }),
		});
		const now = at(60);
		// Until 2099: held for 24 hours from when it was written, not longer.
		expect(
			handedOverAt([forged(at(0), '2099-01-01T00:00:00.000Z')], { phone: ANNA, at: now }),
		).toMatchObject({
			until: at(24 * 60),
		});
		expect(
			handedOverAt([forged(at(0), '2099-01-01T00:00:00.000Z')], {
				phone: ANNA,
				at: at(24 * 60 + 1),
			}),
		).toBeUndefined();
		// Times that are not ours, or stamped ahead of the clock: no hand-over.
		expect(handedOverAt([forged('zzz', at(120))], { phone: ANNA, at: now })).toBeUndefined();
		expect(handedOverAt([forged(at(0), 'Dec 31 9999')], { phone: ANNA, at: now })).toBeUndefined();
		expect(
			handedOverAt([forged('9999-01-01T00:00:00.000Z', '9999-01-01T10:00:00.000Z')], {
				phone: ANNA,
				at: now,
			}),
		).toBeUndefined();
		const reply = row('out', 61, { key: 'turn:x', turn: 'turn:x' });
		expect(
			handoverRefusal(
				[forged('9999-01-01T00:00:00.000Z', '9999-01-01T10:00:00.000Z'), reply],
				reply,
			),
		).toBeNull();
		expect(handoverRefusal([forged('{"a":1}', at(120)), reply], reply)).toBeNull();
	});

	it("refuses the assistant's replies while handed over, but not staff's, nor the reply to the turn the agent handed over in", () => {
		const over = handover(0, 60, 'turn:1');
		const ai = row('out', 1, { key: 'turn:2', turn: 'turn:2' });
		expect(handoverRefusal([over, ai], ai)).toMatch(/handed over to a person/);
		const staff = row('out', 1, { key: '', turn: STAFF });
		expect(handoverRefusal([over, staff], staff)).toBeNull();
		const farewell = row('out', 1, { key: 'turn:1', turn: 'turn:1' });
		expect(handoverRefusal([over, farewell], farewell)).toBeNull();
		const afterwards = row('out', 61, { key: 'turn:3', turn: 'turn:3' });
		expect(handoverRefusal([over, afterwards], afterwards)).toBeNull();
	});

	it('a refused reply never went: not in the history, and the disclosure is said again after a hand-back', () => {
		const text = row('in', 0);
		const aiBefore = row('out', 1, { key: 'turn:a', turn: 'turn:a', text: 'AI before' });
		const over = handover(2, 120);
		const refused = row('out', 3, { key: 'turn:b', turn: 'turn:b', text: 'AI refused' });
		const staff = row('out', 4, { key: '', turn: STAFF, text: 'Staff here' });
		const back = handover(5, 5);
		const next = row('in', 6);
		const rows = [text, aiBefore, over, refused, staff, back, next];
		expect(sentReplies(rows)(refused)).toBe(false);
		expect(sentReplies(rows)(staff)).toBe(true);
		expect(historyOf(rows, [next], 10).map((e) => e.text)).toEqual([
			'in at 0',
			'AI before',
			'Staff here',
		]);
		const reply = row('out', 7, { key: 'turn:c', turn: 'turn:c' });
		expect(disclosureDue([...rows, reply], reply, 24 * 3_600_000)).toBe(true);
		const second = row('out', 8, { key: 'turn:d', turn: 'turn:d' });
		expect(disclosureDue([...rows, reply, second], second, 24 * 3_600_000)).toBe(false);
	});
});
