// Fails when a tracked source or test file (ts, js, mjs, cjs) passes 300 lines (`wc -l`, after
// prettier at 120 columns). Generated files are exempt. Prints every offender, then exits 1.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX_LINES = 300;
const GENERATED = [/^libs\/sdk\/src\/generated\//, /(^|\/)dist\//];

const files = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.js', '*.mjs', '*.cjs', '*.css'], {
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => file && !GENERATED.some((pattern) => pattern.test(file)));

const offenders = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // deleted in the work tree, not yet in the index
  }
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES) offenders.push([lines, file]);
}

if (offenders.length > 0) {
  offenders.sort((a, b) => b[0] - a[0]);
  for (const [lines, file] of offenders) console.error(`${String(lines).padStart(5)} ${file}`);
  console.error(`lint:lines: ${offenders.length} file(s) over ${MAX_LINES} lines; split them (docs/architecture.md).`);
  process.exit(1);
}
console.log(`lint:lines: ${files.length} files, none over ${MAX_LINES} lines`);
