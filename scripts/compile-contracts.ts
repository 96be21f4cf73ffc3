import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { artifacts } from './contracts.js';

/**
 * `npm run contracts:compile`: compiles contracts/ForwarderFactory.sol and the test tokens
 * (test/chain/HostileTokens.sol, test/chain/UsdcLike.sol) and writes their committed JSON artifacts.
 * Run after editing any of them.
 */
for (const { path, text } of await artifacts()) {
  await writeFile(path, text);
  process.stdout.write(`wrote ${fileURLToPath(path)}\n`);
}
