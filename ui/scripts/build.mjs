// Bundles src/main.tsx into dist/ (index.html, assets/app.js, assets/app.css).
// Assets are referenced by absolute /assets/ paths with a content-hash query, so the page works
// under any app path (/, /1/<memberId>/) and a new build is never served from a stale cache.
// Every file gets a gzip (.gz) and a brotli (.br) copy next to it, which the server sends to
// clients that accept them.
import { createHash } from 'node:crypto';
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

async function contentHash(file) {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex')
    .slice(0, 12);
}

await cleanDist();
await esbuild.build({
  entryPoints: { app: path.join(root, 'src/main.tsx') },
  outdir: path.join(dist, 'assets'),
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'esm',
  target: ['chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'none',
  logLevel: 'warning',
});

const jsHash = await contentHash(path.join(dist, 'assets/app.js'));
const cssHash = await contentHash(path.join(dist, 'assets/app.css'));
const template = await readFile(path.join(root, 'src/index.html'), 'utf8');
const html = template
  .replace('%APP_JS%', `/assets/app.js?v=${jsHash}`)
  .replace('%APP_CSS%', `/assets/app.css?v=${cssHash}`);
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
console.log(`built dist/ (app.js ${jsHash}, app.css ${cssHash}): ${kb(sizes.raw)}, gzip ${kb(sizes.gzip)}, br ${kb(sizes.br)}`);
