// Bundles src/main.tsx into dist/ (index.html and assets/): the app-<hash>.js entry, the chunks it
// imports (the home screen's only once it is opened) and their stylesheets. Every asset's name
// carries its content hash (esbuild's, which covers the chunks it imports), and the page names them
// by absolute /assets/ paths, so the page works under any app path (/, /1/<memberId>/) and a new
// build is never served from a stale cache.
// Every file gets a gzip (.gz) and a brotli (.br) copy next to it, which the server sends to
// clients that accept them.
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

async function cleanDist() {
  for (const entry of await readdir(dist)) {
    if (entry !== '.gitkeep') await rm(path.join(dist, entry), { recursive: true, force: true });
  }
}

await cleanDist();
const { metafile } = await esbuild.build({
  entryPoints: { app: path.join(root, 'src/main.tsx') },
  outdir: path.join(dist, 'assets'),
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  metafile: true,
  minify: true,
  sourcemap: false,
  format: 'esm',
  target: ['chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'none',
  logLevel: 'warning',
});

const url = (output) => `/${path.relative(dist, path.join(root, output)).split(path.sep).join('/')}`;
const outputs = Object.entries(metafile.outputs);
const [appJs, app] = outputs.find(([file, o]) => o.entryPoint === 'src/main.tsx' && file.endsWith('.js'));
// esbuild loads no stylesheet of a lazily imported chunk, so the page links those whose sources the
// app's own stylesheet does not already hold, after it.
const appCss = Object.keys(metafile.outputs[app.cssBundle].inputs);
const stylesheets = [
  app.cssBundle,
  ...outputs
    .filter(([file, o]) => file.endsWith('.css') && Object.keys(o.inputs).some((input) => !appCss.includes(input)))
    .map(([file]) => file),
];
const template = await readFile(path.join(root, 'src/index.html'), 'utf8');
const html = template
  .replace('%APP_JS%', url(appJs))
  .replace(
    '<link rel="stylesheet" href="%APP_CSS%" />',
    stylesheets.map((file) => `<link rel="stylesheet" href="${url(file)}" />`).join('\n    '),
  );
await writeFile(path.join(dist, 'index.html'), html);
const gzipped = promisify(gzip);
const brotlied = promisify(brotliCompress);

async function compress(dir) {
  const sizes = { raw: 0, gzip: 0, br: 0 };
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = await compress(file);
      for (const k of Object.keys(sizes)) sizes[k] += inner[k];
      continue;
    }
    if (entry.name === '.gitkeep') continue;
    const data = await readFile(file);
    const gz = await gzipped(data, { level: 9 });
    const br = await brotlied(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    await writeFile(`${file}.gz`, gz);
    await writeFile(`${file}.br`, br);
    sizes.raw += data.length;
    sizes.gzip += gz.length;
    sizes.br += br.length;
  }
  return sizes;
}

const sizes = await compress(dist);
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(`built dist/ (${outputs.length} assets): ${kb(sizes.raw)}, gzip ${kb(sizes.gzip)}, br ${kb(sizes.br)}`);
