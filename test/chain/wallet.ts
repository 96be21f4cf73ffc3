import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { bytesToHex, type Hex } from 'viem';

/*
 * Private keys exist only here, in tests: Paydesk itself never holds one (src/networks/xpub.ts refuses them).
 */

/** The mnemonic of Hardhat's funded accounts: its addresses are senders, never deposit addresses. */
export const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';

/** The merchant's wallet in tests: BIP39's all-"abandon" vector, whose addresses hold nothing locally. */
export const MERCHANT_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** accountXpubFromMnemonic(MERCHANT_MNEMONIC), written out so a test can use it without deriving. */
export const TEST_XPUB =
  'xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt';

/** BIP39 seed (PBKDF2-HMAC-SHA512, 2048 rounds), done by hand so the tests share no code path with viem's. */
export function seedFromMnemonic(mnemonic: string, passphrase = ''): Uint8Array {
  return pbkdf2Sync(
    mnemonic.normalize('NFKD'),
    `mnemonic${passphrase}`.normalize('NFKD'),
    2048,
    64,
    'sha512',
  );
}

/** BIP44 coin types: Ethereum (and every EVM chain) 60, TRON 195. */
export const ETH_COIN = 60;
export const TRON_COIN = 195;

/** The BIP44 account key m/44'/coin'/account' (private: tests only). */
export function accountKey(seed: Uint8Array, account = 0, coin = ETH_COIN): HDKey {
  return HDKey.fromMasterSeed(seed).derive(`m/44'/${coin}'/${account}'`);
}

/** What a merchant exports from a wallet and pastes into Paydesk. */
export function accountXpubFromMnemonic(mnemonic: string, account = 0, coin = ETH_COIN): string {
  return accountKey(seedFromMnemonic(mnemonic), account, coin).publicExtendedKey;
}

/** The private key of m/44'/coin'/account'/0/index, to check a derived deposit address or spend from it. */
export function privateKeyAt(seed: Uint8Array, index: number, account = 0, coin = ETH_COIN): Hex {
  const key = HDKey.fromMasterSeed(seed).derive(`m/44'/${coin}'/${account}'/0/${index}`).privateKey;
  if (!key) throw new Error('no private key');
  return bytesToHex(key);
}

/** accountXpubFromMnemonic(MERCHANT_MNEMONIC, 0, TRON_COIN): the merchant's TRON account, m/44'/195'/0'. */
export const TRON_TEST_XPUB =
  'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd';
