// The Nest CLI's webpack build, less its type checker: every `nest build` ran a full type check of
// its app in a forked process (about 20 s of CPU each), which `npx tsc --noEmit -p tsconfig.json`
// (scripts/test.sh, beside the build) does once for the whole repository.
module.exports = (options) => ({
  ...options,
  plugins: options.plugins.filter((p) => p.constructor.name !== 'ForkTsCheckerWebpackPlugin'),
});
