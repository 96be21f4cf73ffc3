import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { artifacts } from './contracts.js';

/**
 * `npm run contracts:compile`: compiles contracts/ForwarderFactory.sol and the hostile test tokens
 * (test/chain/HostileTokens.sol) and writes their committed JSON artifacts. Run after editing either.
 */
for (const { path, text } of await artifacts()) {
  await writeFile(path, text);
  process.stdout.write(`wrote ${fileURLToPath(path)}\n`);
}
