// Builds the dashboard (ui/: Preact components in TypeScript, one stylesheet) into static files: esbuild bundles
// and minifies ui/src/main.tsx into app-<hash>.js and app-<hash>.css, and ui/index.html is written with those
// names. The server serves the directory at /ui/ (src/api/routes/dashboard.ts): hashed names are cached for a
// year, index.html is revalidated. About a tenth of a second; scripts/ensure-build.mjs runs it into dist/ui/
// whenever a file under ui/ changes, and `npm run build` / npm's `prepare` through it, so the package ships it.
//
//   node scripts/build-ui.mjs [OUTDIR]      (default dist/ui; run from the package root)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Builds ui/ (under `root`, default the working directory) into `outdir`, emptied first. Returns the file names. */
export async function buildUi(outdir, root = '.') {
  const { build } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { app: path.join(root, 'ui/src/main.tsx') }, outdir, entryNames: '[name]-[hash]', bundle: true, minify: true,
    format: 'esm', platform: 'browser', target: ['es2020', 'chrome100', 'firefox100', 'safari15'], jsx: 'automatic',
    jsxImportSource: 'preact', metafile: true, legalComments: 'eof', logLevel: 'warning', absWorkingDir: path.resolve(root),
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  if (js === undefined || css === undefined) throw new Error(`the dashboard build made ${outputs.join(', ')}: expected a .js and a .css`);
  const html = readFileSync(path.join(root, 'ui/index.html'), 'utf8').replace('%APP_JS%', js).replace('%APP_CSS%', css);
  writeFileSync(path.join(outdir, 'index.html'), html);
  return ['index.html', js, css];
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? 'dist/ui';
  const t0 = Date.now();
  const files = await buildUi(out);
  process.stderr.write(`ringmatch: built the dashboard into ${out}/ (${files.join(', ')}) in ${Date.now() - t0} ms\n`);
}
