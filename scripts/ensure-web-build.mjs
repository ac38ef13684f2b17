// `npm start`, `npm run build` and `npm run test:e2e` build the web app only when its sources
// changed since the last build (decision 020): a restart on an existing install then serves /login
// in seconds instead of rebuilding. The build's inputs are hashed (contents, not times, so a
// fresh clone or a checkout cannot fool it) and the hash is kept beside the build, in
// web/dist/.build-inputs.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Everything the web build reads: its sources, its config, the contract it imports, the lock file. */
const INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/package.json',
  'web/tsconfig.json',
  'web/vite.config.ts',
  'web/vite-precompress.ts',
  'contract/src',
  'contract/package.json',
  'tsconfig.base.json',
  'package-lock.json',
];
const STAMP = path.join(root, 'web', 'dist', '.build-inputs');

function filesUnder(relative) {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [relative];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => filesUnder(path.join(relative, entry.name)));
}

function hashInputs() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
  }
  return hash.digest('hex');
}

const inputs = hashInputs();
const built = fs.existsSync(path.join(root, 'web', 'dist', 'index.html')) && fs.existsSync(STAMP);
if (built && fs.readFileSync(STAMP, 'utf8').trim() === inputs) {
  console.log('The web app is built and current: not building it again.');
} else {
  const result = spawnSync('npm', ['run', 'build', '--workspace', 'web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(STAMP, `${inputs}\n`);
}
