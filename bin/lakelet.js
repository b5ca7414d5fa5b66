#!/usr/bin/env node
// The `lakelet` command: runs the CLI compiled to dist/ by `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/node/cli/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('lakelet: dist/ is missing; run `npm run build` first\n');
  process.exit(2);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
