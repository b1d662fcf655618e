const { src, dest } = require('gulp');

// tsc emits JavaScript only; n8n reads node and credential icons as SVG files beside it.
function copyIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

exports['build:icons'] = copyIcons;
