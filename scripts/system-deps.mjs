// Makes sure the system packages the tests need are present: Chromium (browser tests) and nginx (remote
// store tests). On Debian, as root, it installs the missing ones with apt-get; elsewhere it stops and names them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const need = [];
if (!existsSync(chromium)) need.push('chromium', 'chromium-driver');
if (!has('nginx') && !existsSync('/usr/sbin/nginx')) need.push('nginx');
if (need.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot || !has('apt-get')) {
  console.error(`lakelet tests need these system packages: ${need.join(' ')}.\n` +
    `Install them (Debian/Ubuntu: sudo apt-get install -y ${need.join(' ')}) or set CHROMIUM_PATH, then run npm test again.`);
  process.exit(1);
}
console.log(`installing system packages for the tests: ${need.join(' ')}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...need]]) {
  const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`apt-get ${args.join(' ')} failed; install ${need.join(' ')} by hand and run npm test again.`);
    process.exit(1);
  }
}
