import { type Exchange, json, type Reply } from './http';

/** What the chat model below fills in where a tool asks for a phone or mobile number. */
export const CHAT_MODEL_PHONE = '353861230000';
/** What it fills in for any other text argument (a message to send, a name…). */
export const CHAT_MODEL_TEXT = 'sample';

/**
 * An OpenAI-compatible chat model for n8n's AI Agent in tests (its OpenAI chat model node pointed
 * here; no internet). It plays an agent that wants one thing done: asked first, it calls the first
 * tool it is offered (a hand-over tool only on "emergency", toolFor), each argument filled in; once
 * a tool has answered, it says what the tool said.
 */
export const CHAT_COMPLETIONS = '/v1/chat/completions';

/** The models it lists: n8n's OpenAI credential test asks for them before it saves the credential. */
export const CHAT_MODELS = '/v1/models';
export const CHAT_MODEL_IDS = ['gpt-4o-mini', 'gpt-4o'] as const;

export const CHAT_MODEL_ROUTES: Record<string, Partial<Record<string, (e: Exchange) => Reply>>> = {
	[CHAT_COMPLETIONS]: { POST: chatCompletion },
	[CHAT_MODELS]: { GET: listModels },
};

function listModels(): Reply {
	return json(200, {
		object: 'list',
		data: CHAT_MODEL_IDS.map((id) => ({ id, object: 'model', created: 0, owned_by: 'simulator' })),
	});
}

/** One request's messages as the simulator records them: role and text. */
export type ChatRequestMessages = Array<{ role: string; content: string }>;

/** The messages of a chat completion request (its body), each as role and text. */
export function chatMessagesOf(body: Buffer): ChatRequestMessages {
	try {
		const request = JSON.parse(body.toString('utf8') || '{}') as { messages?: ChatMessage[] };
		return (request.messages ?? []).map((m) => ({
			role: String(m.role),
			content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''),
		}));
	} catch {
		return [];
	}
}

interface ChatMessage {
	role: string;
	content?: unknown;
}

interface ArgumentSchema {
	type?: string;
	description?: string;
	properties?: Record<string, ArgumentSchema>;
}

/**
 * Each argument filled in: a number 2, a phone or mobile number CHAT_MODEL_PHONE, an object field
 * by field, anything else a word.
 */
function filledIn(properties: Record<string, ArgumentSchema>): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(properties).map(([name, schema]) => [name, argument(name, schema)]),
	);
}

function argument(name: string, schema: ArgumentSchema): unknown {
	// n8n's human review nests the gated tool's arguments in an object (`toolParameters`).
	if (schema.type === 'object') return filledIn(schema.properties ?? {});
	if (schema.type === 'number') return 2;
	return /\b(phone|mobile)\b/i.test(`${name} ${schema.description ?? ''}`)
		? CHAT_MODEL_PHONE
		: CHAT_MODEL_TEXT;
}

type Tool = { function?: { name?: string; parameters?: ArgumentSchema } };

/** A tool that hands the conversation to a person (the sms-assistant's Hand Over to Staff). */
const HAND_OVER_TOOL = /hand[\s_-]?over/i;

/**
 * The tool it calls: the first it is offered, but never one that hands the conversation to a
 * person, unless the person's last message says "emergency": then that one (how a test plays the
 * agent's own decision to hand over).
 */
function toolFor(tools: Tool[], messages: ChatMessage[]): Tool | undefined {
	const said = [...messages].reverse().find((m) => m.role === 'user')?.content;
	const handOver = tools.find((tool) => HAND_OVER_TOOL.test(tool.function?.name ?? ''));
	if (handOver && /emergency/i.test(typeof said === 'string' ? said : JSON.stringify(said ?? '')))
		return handOver;
	return tools.find((tool) => tool !== handOver);
}

function chatCompletion(exchange: Exchange): Reply {
	const request = JSON.parse(exchange.body.toString('utf8') || '{}') as {
		model?: string;
		messages?: ChatMessage[];
		tools?: Tool[];
	};
	const messages = request.messages ?? [];
	const toolAnswer = [...messages].reverse().find((m) => m.role === 'tool');
	const chosen = toolFor(request.tools ?? [], messages);
	const tool = chosen?.function?.name;
	const args = filledIn(chosen?.function?.parameters?.properties ?? {});
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
