// `npm run lint:deps`: checks the dependency rules of .dependency-cruiser.cjs over apps, libs and test.
//
// This calls dependency-cruiser's API rather than its `depcruise` command because the command
// refuses to start on Node 20 (the machine's; dependency-cruiser 18 declares ^22||^24||>=26), while
// the analysis itself runs on it. It does what the command does with `--config
// .dependency-cruiser.cjs --output-type err`; on Node 22 or later
// `npx depcruise apps libs test --config .dependency-cruiser.cjs` is equivalent.
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const CONFIG = './.dependency-cruiser.cjs';
const targets = process.argv.slice(2);
process.chdir(new URL('..', import.meta.url).pathname);

const options = await extractDepcruiseOptions(CONFIG);
const tsConfigFile = options.ruleSet?.options?.tsConfig?.fileName;
const tsConfig = tsConfigFile ? extractTSConfig(tsConfigFile) : undefined;
const result = await cruise(
  targets.length ? targets : ['apps', 'libs', 'test'],
  { ...options, outputType: 'err' },
  {},
  { tsConfig },
);

process.stdout.write(result.output);
// As the command does: the exit code is the number of error-severity violations (warnings do not fail).
process.exitCode = result.exitCode;
