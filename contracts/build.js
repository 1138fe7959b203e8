#!/usr/bin/env node
/* Compiles contracts/*.sol with npm solc into contracts/build/<Name>.json ({abi, bytecode}).
   Skips the work when the build is newer than the sources. */
const fs = require('node:fs');
const path = require('node:path');

function build() {
  const dir = __dirname;
  const outDir = path.join(dir, 'build');
  const sources = fs.readdirSync(dir).filter((f) => f.endsWith('.sol'));
  const newestSource = Math.max(...sources.map((f) => fs.statSync(path.join(dir, f)).mtimeMs));
  const outputs = sources.map((f) => path.join(outDir, f.replace(/\.sol$/, '.json')));
  if (outputs.every((o) => fs.existsSync(o) && fs.statSync(o).mtimeMs >= newestSource)) return outputs;

  const solc = require('solc');
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(sources.map((f) => [f, { content: fs.readFileSync(path.join(dir, f), 'utf8') }])),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const result = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (result.errors || []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of sources) {
    for (const [name, contract] of Object.entries(result.contracts[file])) {
      fs.writeFileSync(
        path.join(outDir, `${name}.json`),
        JSON.stringify({ abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }, null, 2),
      );
    }
  }
  return outputs;
}

module.exports = { build };
if (require.main === module) {
  const out = build();
  process.stdout.write(`contracts built: ${out.map((o) => path.relative(process.cwd(), o)).join(', ')}\n`);
}
