import { describe, expect, test } from 'vitest';
import { configProblem } from '../../test/network-config.js';
import { loadNetworks } from './registry.js';

// TRON in the network registry (contract §14): its two networks, how an operator configures one,
// and TronGrid's API key.
const KEY = 'a2d1c7f0-5b3e-4c1a-9f8e-0123456789ab';
const LOCAL_TRON = {
  name: 'localtron',
  family: 'tron',
  chainId: 99,
  testnet: true,
  confirmations: 19,
  tokens: { USDT: { address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', decimals: 6 } },
};

describe('the TRON networks', () => {
  const registry = loadNetworks({});

  test('tron and tron-nile: USDT only, 6 decimals, 19 confirmations, Tronscan', () => {
    expect(registry.get('tron')).toMatchObject({
      label: 'TRON',
      family: 'tron',
      confirmations: 19,
      explorer: 'https://tronscan.org/#/transaction/',
      tokens: { USDT: { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 } },
    });
    expect(registry.get('tron-nile')).toMatchObject({
      label: 'TRON Nile',
      family: 'tron',
      testnet: true,
      confirmations: 19,
      explorer: 'https://nile.tronscan.org/#/transaction/',
      tokens: { USDT: { address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', decimals: 6 } },
    });
    expect(registry.token('tron', 'USDC')).toBeUndefined();
  });

  test('a transaction links to Tronscan by its txid, an EVM one to its explorer, a local chain nowhere', () => {
    const txid = 'a'.repeat(64);
    expect(registry.transactionUrl('tron', txid)).toBe(`https://tronscan.org/#/transaction/${txid}`);
    expect(registry.transactionUrl('ethereum', `0x${txid}`)).toBe(`https://etherscan.io/tx/0x${txid}`);
    expect(registry.transactionUrl('sandbox', 'tx')).toBeUndefined();
    expect(registry.transactionUrl('nowhere', 'tx')).toBeUndefined();
  });

  test('are enabled by PAYDESK_RPC_TRON and PAYDESK_RPC_TRON_NILE', () => {
    const enabled = loadNetworks({
      PAYDESK_RPC_TRON: 'https://tron.example/jsonrpc',
      PAYDESK_RPC_TRON_NILE: 'https://nile.trongrid.io/jsonrpc',
    }).enabled();
    expect(enabled.map((n) => n.name)).toEqual(['tron', 'tron-nile']);
  });
});

describe('PAYDESK_NETWORKS with TRON', () => {
  test('adds a TRON-family network whose tokens are written T…', () => {
    const registry = loadNetworks({ PAYDESK_NETWORKS: JSON.stringify([LOCAL_TRON]) });
    expect(registry.get('localtron')).toMatchObject({ family: 'tron', tokens: LOCAL_TRON.tokens });
  });

  test('retunes a built-in TRON network, keeping its family', () => {
    const registry = loadNetworks({
      PAYDESK_NETWORKS: JSON.stringify([{ name: 'tron', confirmations: 27, pollIntervalMs: 1000 }]),
    });
    expect(registry.get('tron')).toMatchObject({ family: 'tron', confirmations: 27, pollIntervalMs: 1000 });
  });

  test.each([
    [
      {
        ...LOCAL_TRON,
        tokens: { USDT: { address: '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c', decimals: 6 } },
      },
      /tokens\.USDT\.address must be a TRON address \(T…, base58check\) on a TRON network/,
    ],
    [
      { ...LOCAL_TRON, tokens: { USDT: { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', decimals: 6 } } },
      /tokens\.USDT\.address must be a TRON address/,
    ],
    [{ ...LOCAL_TRON, family: 'evm' }, /tokens\.USDT\.address fails its EIP-55 checksum/],
    [{ ...LOCAL_TRON, family: 'bitcoin' }, /\("localtron"\): family: /],
    [{ name: 'tron', family: 'evm' }, /family of built-in network "tron" is tron and cannot change/],
  ])('refuses %j, naming the field', (entry, expected) => {
    expect(configProblem({ PAYDESK_NETWORKS: JSON.stringify([entry]) })).toMatch(expected);
  });
});

describe('TRON RPC endpoints', () => {
  test('are http(s) only: java-tron serves no JSON-RPC over WebSocket', () => {
    expect(configProblem({ PAYDESK_RPC_TRON: 'wss://tron.example/ws' })).toBe(
      'Invalid network configuration: PAYDESK_RPC_TRON: TRON nodes serve JSON-RPC over http(s) only',
    );
  });

  test("on TronGrid, must be its /jsonrpc path, not the HTTP API's root", () => {
    expect(configProblem({ PAYDESK_RPC_TRON: 'https://api.trongrid.io' })).toMatch(
      /PAYDESK_RPC_TRON: TronGrid's JSON-RPC is at the path \/jsonrpc/,
    );
    expect(loadNetworks({ PAYDESK_RPC_TRON: 'https://api.trongrid.io/jsonrpc/' }).enabled()).toHaveLength(1);
  });
});

describe('PAYDESK_TRONGRID_API_KEY', () => {
  test('is sent as TRON-PRO-API-KEY to TronGrid, and to nobody else', () => {
    const registry = loadNetworks({
      PAYDESK_TRONGRID_API_KEY: KEY,
      PAYDESK_RPC_TRON: 'https://api.trongrid.io/jsonrpc',
      PAYDESK_RPC_TRON_NILE: 'https://tron-nile.other-provider.example/jsonrpc',
      PAYDESK_RPC_ETHEREUM: 'https://api.trongrid.io.evil.example/',
    });
    expect(registry.get('tron')?.rpcHeaders).toEqual({ 'TRON-PRO-API-KEY': KEY });
    expect(registry.get('tron-nile')?.rpcHeaders).toBeUndefined();
    expect(registry.get('ethereum')?.rpcHeaders).toBeUndefined();
  });

  test('is never part of a configuration error', () => {
    const message = configProblem({
      PAYDESK_TRONGRID_API_KEY: KEY,
      PAYDESK_RPC_TRON: 'wss://api.trongrid.io/jsonrpc',
    });
    expect(message).not.toContain(KEY);
  });
});
