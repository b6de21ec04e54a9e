// The esbuild options that shape the code users run: the package's build (scripts/build.mjs) uses them, and so do
// the benchmarks (scripts/run-bundled.mjs), so that what is measured is compiled as what is shipped. Function names
// are not kept: keeping them (as tsx does when it runs TypeScript) wraps every function made at run time, closures
// included, in a call that defines its `name`, which cost a model turn of toolsmith about 45 %.
export const codeShape = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  keepNames: false,
  logLevel: "warning",
};
