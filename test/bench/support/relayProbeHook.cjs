// Preloaded into n8n by relayProbe.ts (NODE_OPTIONS=--require): counts and times per-request work
// (isolate acquisitions, credential loads, webhook calls, parameter reads). The counters are written
// to RELAY_PROBE_OUT.<pid> at start and on each SIGUSR2, never per request, so the probe itself
// costs next to nothing; with RELAY_PROBE_CPU_PROF set, SIGUSR2 also starts a CPU profile, and the
// next writes it into that folder, so a profile holds only what happened between two signals.
const Module = require('module');
const fs = require('fs');

const out = process.env.RELAY_PROBE_OUT;
const counters = {};

function add(name, ms) {
	const c = (counters[name] ??= { n: 0, ms: 0 });
	c.n++;
	c.ms += ms;
}

function wrap(proto, method, name, isAsync) {
	const original = proto[method];
	if (typeof original !== 'function' || original.__probed) return;
	const label = (self, args) => (typeof name === 'function' ? name(self, args) : name);
	proto[method] = isAsync
		? async function (...args) {
				const start = performance.now();
				try {
					return await original.apply(this, args);
				} finally {
					add(label(this, args), performance.now() - start);
				}
			}
		: function (...args) {
				const start = performance.now();
				try {
					return original.apply(this, args);
				} finally {
					add(label(this, args), performance.now() - start);
				}
			};
	proto[method].__probed = true;
}

const patches = [
	[
		'n8n-workflow/dist/cjs/expression.js',
		'Expression',
		(C) => wrap(C.prototype, 'acquireIsolate', 'acquireIsolate', true),
	],
	[
		'n8n/dist/credentials-helper.js',
		'CredentialsHelper',
		(C) => wrap(C.prototype, 'getDecrypted', (_, args) => `getDecrypted:${args[2]}`, true),
	],
	[
		'n8n/dist/webhooks/webhook.service.js',
		'WebhookService',
		(C) => wrap(C.prototype, 'runWebhook', (_, args) => `runWebhook:${args[2].type}`, true),
	],
	[
		'n8n/dist/webhooks/live-webhooks.js',
		'LiveWebhooks',
		(C) => wrap(C.prototype, 'executeWebhook', 'executeWebhook', true),
	],
	[
		'n8n-core/dist/execution-engine/node-execution-context/node-execution-context.js',
		'NodeExecutionContext',
		(C) =>
			wrap(
				C.prototype,
				'_getNodeParameter',
				(self, args) => `getNodeParameter:${self.node.type}:${args[0]}`,
				false,
			),
	],
];

const originalLoad = Module._load;
Module._load = function (request, parent, isMain) {
	const exports = originalLoad.apply(this, arguments);
	if (
		!request.includes('credentials-helper') &&
		!request.includes('webhook') &&
		!request.includes('expression') &&
		!request.includes('node-execution-context')
	) {
		return exports;
	}
	let file;
	try {
		file = Module._resolveFilename(request, parent, isMain);
	} catch {
		return exports;
	}
	for (const [suffix, name, patch] of patches) {
		if (file.endsWith(suffix) && exports[name]) patch(exports[name]);
	}
	return exports;
};

function save() {
	if (!out) return;
	// Written whole and renamed into place, so a reader never sees half a file.
	fs.writeFileSync(`${out}.${process.pid}.tmp`, JSON.stringify(counters));
	fs.renameSync(`${out}.${process.pid}.tmp`, `${out}.${process.pid}`);
}
save();

let session;
let profiling = false;
process.on('SIGUSR2', () => {
	save();
	const folder = process.env.RELAY_PROBE_CPU_PROF;
	if (!folder) return;
	if (!session) {
		const inspector = require('inspector');
		session = new inspector.Session();
		session.connect();
	}
	if (!profiling) {
		profiling = true;
		session.post('Profiler.enable', () => session.post('Profiler.start'));
		return;
	}
	profiling = false;
	session.post('Profiler.stop', (error, result) => {
		if (!error)
			fs.writeFileSync(
				`${folder}/${process.pid}-${Date.now()}.cpuprofile`,
				JSON.stringify(result.profile),
			);
	});
});
