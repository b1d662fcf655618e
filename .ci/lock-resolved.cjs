#!/usr/bin/env node
// Writes each registry package's tarball address (`resolved`) into the lock files. Without it,
// `npm ci` first downloads every package's whole metadata document to find the tarball: for the
// pinned n8n's 1,587 packages, minutes of one core on a cold `npm start`. npm leaves the address out
// when its config says omit-lockfile-registry-resolved, so run this after `npm install`:
//   node .ci/lock-resolved.cjs
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const REGISTRY = 'https://registry.npmjs.org/';
const LOCK_FILES = ['package-lock.json', 'test/e2e/n8n/package-lock.json'];

/** The entries of a lock file that come from the registry but do not say from where. */
function missing(lock) {
	return Object.entries(lock.packages).filter(
		([key, entry]) =>
			// Only installed packages (a workspace's key has no node_modules/).
			key.includes('node_modules/') &&
			!entry.link &&
			entry.version &&
			entry.integrity &&
			!entry.resolved,
	);
}

/** The registry's tarball address of a lock file entry (its key ends in the package's name). */
function tarballOf(key, entry) {
	const name = entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
	return `${REGISTRY}${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
}

/** The entry with `resolved` after `version`, where npm writes it. */
function withResolved(key, entry) {
	const out = {};
	for (const [field, value] of Object.entries(entry)) {
		out[field] = value;
		if (field === 'version') out.resolved = tarballOf(key, entry);
	}
	return out;
}

module.exports = { LOCK_FILES, missing, tarballOf };

if (require.main === module) {
	for (const file of LOCK_FILES) {
		const full = path.join(__dirname, '..', file);
		const text = readFileSync(full, 'utf8');
		const lock = JSON.parse(text);
		const todo = missing(lock);
		for (const [key, entry] of todo) lock.packages[key] = withResolved(key, entry);
		const indent = /^\{\n(\s+)"/.exec(text)?.[1] ?? '  ';
		writeFileSync(full, `${JSON.stringify(lock, null, indent)}\n`);
		console.log(`${file}: ${todo.length} tarball addresses added`);
	}
}
