import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { FAMILY } from '../src/networks/family.js';
import { deriveAddress } from '../src/networks/xpub.js';

/**
 * `npm run xpub`: the account-level extended public keys Paydesk asks for (m/44'/60'/0' for every EVM
 * network, m/44'/195'/0' for TRON), from a wallet's recovery phrase, for wallets that do not show them
 * (MetaMask, Ledger Live; docs/networks.md). Meant for an offline machine, with the phrase of a wallet
 * kept for receiving. The phrase is read from standard input, never from the command line (where the
 * shell history and `ps` would keep it), used in memory, and never printed, not even in an error.
 * The first addresses of each key are printed beside it: they must be the wallet's own, which also
 * catches a mistyped word (this tool does not check BIP39's word list).
 */
const WORD_COUNTS = [12, 15, 18, 21, 24];

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

function accountXpub(seed: Uint8Array, coin: number): HDKey {
  const account = HDKey.fromMasterSeed(seed).derive(`m/44'/${coin}'/0'`);
  return HDKey.fromExtendedKey(account.publicExtendedKey);
}

async function main(): Promise<number> {
  if (process.stdin.isTTY) process.stderr.write('Recovery phrase (then Enter and Ctrl-D): ');
  const words = (await readStdin()).trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!WORD_COUNTS.includes(words.length) || !words.every((w) => /^[a-z]+$/.test(w))) {
    process.stderr.write(
      `A recovery phrase is 12, 15, 18, 21 or 24 English words; got ${words.length} word(s). Nothing was derived.\n`,
    );
    return 1;
  }
  // BIP39: the seed is PBKDF2-HMAC-SHA512 of the phrase, salt "mnemonic" (no passphrase), 2048 rounds.
  const seed = pbkdf2Sync(words.join(' ').normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
  for (const [label, coin, family] of [
    ['EVM (every EVM network): evm_xpub', 60, FAMILY.evm],
    ['TRON: tron_xpub', 195, FAMILY.tron],
  ] as const) {
    const key = accountXpub(seed, coin);
    const addresses = [0, 1, 2].map((i) => `    0/${i}  ${deriveAddress(key, i, family)}`);
    process.stdout.write(
      `${label}, m/44'/${coin}'/0'\n  ${key.publicExtendedKey}\n  first addresses:\n${addresses.join('\n')}\n\n`,
    );
  }
  seed.fill(0);
  return 0;
}

process.exitCode = await main();
