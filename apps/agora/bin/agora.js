#!/usr/bin/env node
// `npx agora` from the repository: the built CLI (npm run build).
require('../../../dist/apps/agora/main.js');
