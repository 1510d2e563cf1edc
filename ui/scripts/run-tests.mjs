// Compiles the TypeScript tests of one folder (tests/ or e2e/) with esbuild into .build/<folder>
// and runs them with node's test runner. Packages stay external and resolve from node_modules.
// Names after the folder pick files: `npm run e2e -- chat routes` runs chat.e2e.ts and routes.e2e.ts.
import { spawn } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const folder = process.argv[2];
if (folder !== 'tests' && folder !== 'e2e') {
  console.error('usage: run-tests.mjs tests|e2e [name...]');
  process.exit(2);
}
const suffix = folder === 'e2e' ? '.e2e.ts' : '.test.ts';
const picked = process.argv.slice(3);
const entries = (await readdir(path.join(root, folder)))
  .filter((name) => name.endsWith(suffix))
  .filter((name) => picked.length === 0 || picked.includes(name.slice(0, -suffix.length)))
  .map((name) => path.join(root, folder, name));
const outdir = path.join(root, '.build', folder);
await rm(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: entries,
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const built = entries.map((file) => path.join(outdir, path.basename(file).replace(/\.ts$/, '.mjs')));
const args = ['--test', '--test-concurrency=1', ...built];
const child = spawn(process.execPath, args, { stdio: 'inherit', cwd: root });
child.on('exit', (code) => process.exit(code ?? 1));
