#!/usr/bin/env node
// The `agora` command: the bundled CLI (dist/main.js, made by the package's build). The path is
// computed so that tools reading the source do not expect the build to exist.
require(require('node:path').join(__dirname, '..', 'dist', 'main.js'));
