const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const { src, dest } = require('gulp');

const { numberingPlansSource } = require('./scripts/numberingPlans');

// tsc emits JavaScript only; n8n reads node and credential icons as SVG files beside it.
function copyIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

exports['build:icons'] = copyIcons;

/*
 * build:numbering — nodes/Phonovation/domain/numberingPlans.generated.json from libphonenumber-js's
 * metadata (a dev dependency: the package ships no runtime dependencies), by
 * scripts/numberingPlans.js. Run it after updating libphonenumber-js; a unit test fails while the
 * committed table differs from what this writes.
 */
const NUMBERING_FILE = join(__dirname, 'nodes/Phonovation/domain/numberingPlans.generated.json');

function buildNumbering(done) {
	const { Metadata } = require('libphonenumber-js/core');
	const metadataJson = require('libphonenumber-js/metadata.max.json');
	const { version } = require('libphonenumber-js/package.json');
	writeFileSync(NUMBERING_FILE, numberingPlansSource(Metadata, metadataJson, version));
	done();
}
// For the test that holds the committed file to what the task writes (not a task itself).
buildNumbering.source = numberingPlansSource;

exports['build:numbering'] = buildNumbering;
