import {
	answerCodeOf,
	withoutCode,
} from '../../../../../../nodes/Phonovation/resources/conversation/ask/answerCodes';
import {
	codeLine,
	wantsAnswerCode,
} from '../../../../../../nodes/Phonovation/resources/conversation/ask/answers';

const SECRET = 'a-long-random-relay-secret-0123456789';

describe("a question's answer code: a captured YES can never answer a later question", () => {
	it('is four digits of its own per question, and only the Relay Secret makes it', () => {
		const codes = ['41.0.abcdefghijkl', '41.1.abcdefghijkl', '42.0.abcdefghijkl'].map((ref) =>
			answerCodeOf(ref, SECRET),
		);
		for (const code of codes) expect(code).toMatch(/^[0-9]{4}$/);
		expect(answerCodeOf('41.0.abcdefghijkl', SECRET)).toBe(codes[0]);
		expect(answerCodeOf('41.0.abcdefghijkl', 'another-secret')).not.toBe(codes[0]);
		expect(codeLine('0042')).toBe('\nReply YES 0042 or NO 0042');
	});

	it.each([
		['YES 4821', 'YES'],
		['4821 yes please', 'yes please'],
		['No, 4821.', 'No, .'],
		['yes4821', 'yes'],
		['YES 48210', null],
		['YES 1234', null],
		['YES', null],
	])('%j carries the code 4821: %j is read as the answer', (text, answer) => {
		expect(withoutCode(text, '4821')).toBe(answer);
	});

	it("is on by default for the AI Agent's human review only, and the option decides otherwise", () => {
		expect(wantsAnswerCode({}, 'n8n-nodes-phonovation.phonovationHitlTool')).toBe(true);
		expect(wantsAnswerCode({}, 'n8n-nodes-phonovation.phonovation')).toBe(false);
		expect(wantsAnswerCode({ answerCode: false }, 'x.phonovationHitlTool')).toBe(false);
		expect(wantsAnswerCode({ answerCode: true }, 'n8n-nodes-phonovation.phonovation')).toBe(true);
	});
});
