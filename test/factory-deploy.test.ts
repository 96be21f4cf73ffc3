import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACTORY_ADDRESS } from '../src/forwarders/deploy.js';
import { type LocalChain, startChain, stopAllChains } from './chain.js';
import { installProxy } from './forwarders.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// Hardhat's account #1: the node funds it, and nothing else in this file sends from it.
const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const COLLECTOR = privateKeyToAccount(KEY).address;
// The network's configuration needs a token; the deployment never touches it.
const TOKEN = { address: '0x00000000000000000000000000000000000000aa', decimals: 6 };

let chain: LocalChain;
beforeAll(async () => {
  chain = await startChain();
});
afterAll(stopAllChains);

/** `npm run factory -- …` as an operator runs it: a real child process, the configuration in its environment. */
async function factory(args: string[], env: Record<string, string> = {}) {
  const child = promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/factory.ts', ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PAYDESK_NETWORKS: JSON.stringify([
        {
          name: 'devchain',
          chainId: chain.chainId,
          testnet: true,
          confirmations: 1,
          tokens: { USDT: TOKEN },
        },
      ]),
      PAYDESK_RPC_DEVCHAIN: chain.rpcUrl,
      PAYDESK_COLLECTOR_KEY_DEVCHAIN: KEY,
      ...env,
    },
  });
  const result = await child.then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  // Whatever happened, the key and the RPC URL are printed nowhere.
  expect(result.stdout + result.stderr).not.toContain(KEY.slice(2));
  expect(result.stdout + result.stderr).not.toContain(chain.rpcUrl);
  return result;
}

const sent = () => chain.publicClient.getTransactionCount({ address: COLLECTOR as Address });

describe('npm run factory -- deploy', () => {
  it('says how to get the deterministic-deployment proxy onto a chain that lacks it, and sends nothing', async () => {
    const result = await factory(['deploy', '--network', 'devchain']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /deterministic-deployment proxy 0x4e59b44847b379578588920ca78fbf26c0b4956c is not on this chain/,
    );
    expect(result.stderr).toMatch(/0x3fab184622dc19b6109349b94811493bf2a45362/);
    expect(await sent()).toBe(0);
  });

  it('deploys the factory at its one address, then says it is there and sends nothing', async () => {
    await installProxy(chain);
    const first = await factory(['deploy', '--network', 'devchain']);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain(`deployed the forwarder factory on devchain at ${FACTORY_ADDRESS}`);
    expect(await sent()).toBe(1);
    expect(await chain.publicClient.getCode({ address: FACTORY_ADDRESS })).not.toBe('0x');

    const second = await factory(['deploy', '--network', 'devchain']);
    expect(second.stdout).toContain(`already deployed on devchain at ${FACTORY_ADDRESS}; nothing sent`);
    expect(await sent()).toBe(1);
  });

  it('names the variable to set when there is no collector key', async () => {
    const missing = await factory(['deploy', '--network', 'devchain'], {
      PAYDESK_COLLECTOR_KEY_DEVCHAIN: '',
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('set PAYDESK_COLLECTOR_KEY (or PAYDESK_COLLECTOR_KEY_DEVCHAIN)');
  });
});
