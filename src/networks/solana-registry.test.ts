import { describe, expect, test } from 'vitest';
import { configProblem } from '../../test/network-config.js';
import { loadNetworks } from './registry.js';

// Solana in the network registry (contract §24): its two networks and a local cluster by configuration.
const MINT = 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr';
const LOCAL = {
  name: 'localsol',
  family: 'solana',
  label: 'Local Solana',
  testnet: true,
  pollIntervalMs: 200,
  tokens: { USDC: { mint: MINT, decimals: 6 } },
};

describe('the Solana networks', () => {
  test("solana and solana-devnet: the issuers' mints, 6 decimals, Solana's explorer", () => {
    const registry = loadNetworks({
      PAYDESK_RPC_SOLANA: 'https://api.mainnet-beta.solana.com',
      PAYDESK_RPC_SOLANA_DEVNET: 'https://api.devnet.solana.com',
    });
    expect(registry.get('solana')).toMatchObject({
      family: 'solana',
      testnet: false,
      rpcUrl: 'https://api.mainnet-beta.solana.com',
      tokens: {
        USDC: { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6 },
        USDT: { address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6 },
      },
    });
    expect(registry.get('solana-devnet')).toMatchObject({
      family: 'solana',
      testnet: true,
      tokens: { USDC: { address: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', decimals: 6 } },
    });
    expect(registry.get('solana-devnet')?.tokens.USDT).toBeUndefined();
    expect(registry.transactionUrl('solana', 'SIG')).toBe('https://explorer.solana.com/tx/SIG');
    expect(registry.transactionUrl('solana-devnet', 'SIG')).toBe(
      'https://explorer.solana.com/tx/SIG?cluster=devnet',
    );
  });

  test('a local cluster is added with its mints, and has no explorer', () => {
    const registry = loadNetworks({
      PAYDESK_NETWORKS: JSON.stringify([LOCAL]),
      PAYDESK_RPC_LOCALSOL: 'http://127.0.0.1:8899',
    });
    expect(registry.get('localsol')).toMatchObject({
      family: 'solana',
      label: 'Local Solana',
      pollIntervalMs: 200,
      tokens: { USDC: { address: MINT, decimals: 6 } },
    });
    expect(registry.transactionUrl('localsol', 'SIG')).toBeUndefined();
  });

  test('a Solana entry is refused when its mint is not base58, it has a chainId, or a ws URL', () => {
    const bad = {
      ...LOCAL,
      tokens: { USDC: { mint: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 } },
    };
    expect(configProblem({ PAYDESK_NETWORKS: JSON.stringify([bad]) })).toContain(
      'tokens.USDC.address must be a base58 Solana address (32 bytes) on a Solana network',
    );
    expect(configProblem({ PAYDESK_NETWORKS: JSON.stringify([{ ...LOCAL, chainId: 5 }]) })).toContain(
      'a Solana network has no chainId',
    );
    expect(
      configProblem({ PAYDESK_NETWORKS: JSON.stringify([{ ...LOCAL, tokens: { USDC: { decimals: 6 } } }]) }),
    ).toContain('tokens.USDC needs its mint');
    expect(configProblem({ PAYDESK_RPC_SOLANA: 'wss://api.mainnet-beta.solana.com' })).toContain(
      'PAYDESK_RPC_SOLANA: Paydesk reads Solana',
    );
  });
});
