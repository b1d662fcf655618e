import { type Exchange, json, type Reply } from './http';

/**
 * An OpenAI-compatible chat model for n8n's AI Agent in tests (its OpenAI chat model node pointed
 * here; no internet). It plays an agent that wants one thing done: asked first, it calls the first
 * tool it is offered, each argument filled in; once a tool has answered, it says what the tool said.
 */
export const CHAT_MODEL_ROUTES: Record<string, Partial<Record<string, (e: Exchange) => Reply>>> = {
	'/v1/chat/completions': { POST: chatCompletion },
};

interface ChatMessage {
	role: string;
	content?: unknown;
}

function chatCompletion(exchange: Exchange): Reply {
	const request = JSON.parse(exchange.body.toString('utf8') || '{}') as {
		model?: string;
		messages?: ChatMessage[];
		tools?: Array<{
			function?: { name?: string; parameters?: { properties?: Record<string, { type?: string }> } };
		}>;
	};
	const messages = request.messages ?? [];
	const toolAnswer = [...messages].reverse().find((m) => m.role === 'tool');
	const tool = request.tools?.[0]?.function?.name;
	// Every argument the tool asks for, filled in: a number 2, anything else a word.
	const asked = request.tools?.[0]?.function?.parameters?.properties ?? {};
	const args = Object.fromEntries(
		Object.entries(asked).map(([name, schema]) => [name, schema.type === 'number' ? 2 : 'sample']),
	);
	const message =
		toolAnswer || !tool
			? { role: 'assistant', content: `The tool said: ${String(toolAnswer?.content ?? 'nothing')}` }
			: {
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: 'call_1',
							type: 'function',
							function: { name: tool, arguments: JSON.stringify(args) },
						},
					],
				};
	return json(200, {
		id: 'chatcmpl-simulator',
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: request.model ?? 'simulator',
		choices: [
			{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' },
		],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	});
}
