#!/usr/bin/env node
// `npx agora` from the repository: the built CLI (npm run build). The path is computed so that
// tools reading the source do not expect the build to exist.
require(require('node:path').join(__dirname, '..', '..', '..', 'dist', 'apps', 'agora', 'main.js'));
