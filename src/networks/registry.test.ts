import { isAddress } from 'viem';
import { describe, expect, test } from 'vitest';
import { configProblem } from '../../test/network-config.js';

import { CURRENCIES } from './network.js';
import { loadNetworks, rpcVariable } from './registry.js';
import { isTronAddress } from './tron-address.js';

const HARDHAT = {
  name: 'hardhat',
  chainId: 31337,
  testnet: true,
  confirmations: 1,
  tokens: { USDT: { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3', decimals: 6 } },
};

describe('built-in networks', () => {
  const registry = loadNetworks({});

  test('are the fourteen mainnets and testnets, with unique names and chain ids (none on Solana)', () => {
    expect(registry.all().map((n) => [n.name, n.chainId, n.testnet])).toEqual([
      ['ethereum', 1, false],
      ['polygon', 137, false],
      ['bsc', 56, false],
      ['arbitrum', 42161, false],
      ['base', 8453, false],
      ['sepolia', 11155111, true],
      ['polygon-amoy', 80002, true],
      ['bsc-testnet', 97, true],
      ['arbitrum-sepolia', 421614, true],
      ['base-sepolia', 84532, true],
      ['tron', 0x2b6653dc, false],
      ['tron-nile', 0xcd8690dc, true],
      ['solana', 0, false],
      ['solana-devnet', 0, true],
    ]);
  });

  test('each has sane settings and tokens at EIP-55 checksummed addresses', () => {
    // Solana's (mints, no blocks to count): solana-registry.test.ts.
    for (const n of registry.all().filter((n) => n.family !== 'solana')) {
      expect(n.name).toMatch(/^[a-z0-9-]{1,32}$/);
      expect(n.label.length).toBeGreaterThan(0);
      expect(n.confirmations).toBeGreaterThanOrEqual(1);
      expect(n.confirmations).toBeLessThanOrEqual(n.testnet ? 20 : 128);
      expect(n.pollIntervalMs).toBeGreaterThanOrEqual(1000);
      expect(n.pollIntervalMs).toBeLessThanOrEqual(15_000);
      // TRON's busy mainnet reads 20 blocks a query, under the node's 10,000-log cap (builtin.ts).
      expect(n.maxBlockRange).toBeGreaterThanOrEqual(n.family === 'tron' ? 20 : 100);
      expect(n.explorer).toMatch(
        n.family === 'tron' ? /^https:\/\/[a-z.]+\/#\/transaction\/$/ : /^https:\/\/[a-z.]+\/tx\/$/,
      );
      expect(n.rpcUrl).toBeUndefined();
      for (const [currency, token] of Object.entries(n.tokens)) {
        expect(CURRENCIES).toContain(currency);
        const valid =
          n.family === 'tron' ? isTronAddress(token.address) : isAddress(token.address, { strict: true });
        expect(valid, `${n.name} ${currency}`).toBe(true);
        expect(token.address).not.toBe(token.address.toLowerCase());
        expect(token.decimals).toBe(n.name === 'bsc' ? 18 : 6);
      }
    }
  });

  test('carry the issuers’ contracts, USDC on every network but the BSC testnet', () => {
    expect(registry.token('ethereum', 'USDT')).toEqual({
      address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      decimals: 6,
    });
    expect(registry.token('bsc', 'USDT')?.decimals).toBe(18);
    expect(registry.token('base', 'USDT')).toBeUndefined();
    const withUsdc = registry.all().filter((n) => registry.token(n.name, 'USDC'));
    expect(withUsdc.map((n) => n.name)).not.toContain('bsc-testnet');
    expect(withUsdc).toHaveLength(11);
    expect(registry.token('nowhere', 'USDC')).toBeUndefined();
    expect(registry.token('ethereum', 'toString' as 'USDC')).toBeUndefined();
  });

  test('the registry cannot be changed by its users', () => {
    const eth = registry.get('ethereum')!;
    expect(Object.isFrozen(registry.all())).toBe(true);
    expect(() => Object.assign(eth, { confirmations: 1 })).toThrow(TypeError);
    expect(() => Object.assign(eth.tokens.USDT!, { decimals: 18 })).toThrow(TypeError);
  });
});

describe('RPC endpoints', () => {
  test('a network is enabled by PAYDESK_RPC_<NAME>, upper case with - as _', () => {
    expect(rpcVariable('polygon-amoy')).toBe('PAYDESK_RPC_POLYGON_AMOY');
    const registry = loadNetworks({
      PAYDESK_RPC_POLYGON_AMOY: 'https://rpc-amoy.polygon.technology',
      PAYDESK_RPC_ETHEREUM: 'wss://mainnet.example.com/v3/key',
      PAYDESK_RPC_BASE: '',
    });
    expect(registry.enabled().map((n) => n.name)).toEqual(['ethereum', 'polygon-amoy']);
    expect(registry.get('polygon-amoy')?.rpcUrl).toBe('https://rpc-amoy.polygon.technology');
    expect(registry.get('base')?.rpcUrl).toBeUndefined();
  });

  test('refuses a URL of another scheme without echoing it (it may carry an API key)', () => {
    for (const url of ['ftp://rpc.example/secret-key-123', 'not a url secret-key-123', 'http://']) {
      const message = configProblem({ PAYDESK_RPC_POLYGON: url });
      expect(message).toMatch(/PAYDESK_RPC_POLYGON must be an http, https, ws or wss URL/);
      expect(message).not.toContain('secret-key-123');
    }
  });

  test('refuses a PAYDESK_RPC_ variable that names no network, so a typo cannot leave one off', () => {
    expect(configProblem({ PAYDESK_RPC_AMOY: 'https://rpc.example' })).toMatch(
      /PAYDESK_RPC_AMOY names no network \(known: ethereum, .*polygon-amoy/,
    );
  });
});

describe('PAYDESK_NETWORKS', () => {
  test('adds a network, with defaults for what a local chain need not say', () => {
    const registry = loadNetworks({
      PAYDESK_NETWORKS: JSON.stringify([HARDHAT]),
      PAYDESK_RPC_HARDHAT: 'http://127.0.0.1:8545',
    });
    expect(registry.get('hardhat')).toEqual({
      name: 'hardhat',
      label: 'hardhat',
      chainId: 31337,
      testnet: true,
      confirmations: 1,
      pollIntervalMs: 2000,
      maxBlockRange: 500,
      family: 'evm',
      explorer: undefined,
      // Lower-case input comes out checksummed.
      tokens: { USDT: { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', decimals: 6 } },
      rpcUrl: 'http://127.0.0.1:8545',
      rpcHeaders: undefined,
    });
    expect(registry.all().at(-1)?.name).toBe('hardhat');
    expect(registry.enabled().map((n) => n.name)).toEqual(['hardhat']);
  });

  test('overrides fields of a built-in network and merges its tokens', () => {
    const own = '0x1111111111111111111111111111111111111111';
    const registry = loadNetworks({
      PAYDESK_NETWORKS: JSON.stringify([
        { name: 'polygon', confirmations: 200, maxBlockRange: 50 },
        { name: 'bsc-testnet', label: 'BSC test', tokens: { USDT: { address: own, decimals: 18 } } },
      ]),
    });
    const polygon = registry.get('polygon')!;
    expect([polygon.confirmations, polygon.maxBlockRange, polygon.pollIntervalMs]).toEqual([200, 50, 2000]);
    expect(polygon.tokens).toEqual(loadNetworks({}).get('polygon')?.tokens);
    expect(registry.get('bsc-testnet')?.label).toBe('BSC test');
    expect(registry.token('bsc-testnet', 'USDT')).toEqual({ address: own, decimals: 18 });
    expect(registry.all()).toHaveLength(14);
  });

  test("carries a token's EIP-3009 domain, keeps a built-in's only with its own contract, and refuses one on TRON", () => {
    expect(loadNetworks({}).token('base', 'USDC')?.eip3009).toEqual({ name: 'USD Coin', version: '2' });
    expect(loadNetworks({}).token('bsc', 'USDC')?.eip3009).toBeUndefined();
    const registry = loadNetworks({
      PAYDESK_NETWORKS: JSON.stringify([
        { ...HARDHAT, tokens: { USDC: { ...HARDHAT.tokens.USDT, eip3009: { name: 'Test', version: '2' } } } },
        { name: 'base', tokens: { USDC: { address: `0x${'12'.repeat(20)}`, decimals: 6 } } },
      ]),
    });
    expect(registry.token('hardhat', 'USDC')?.eip3009).toEqual({ name: 'Test', version: '2' });
    expect(registry.token('base', 'USDC')?.eip3009).toBeUndefined();
    const tron = {
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      decimals: 6,
      eip3009: { name: 'x', version: '1' },
    };
    expect(
      configProblem({ PAYDESK_NETWORKS: JSON.stringify([{ name: 'tron', tokens: { USDT: tron } }]) }),
    ).toMatch(/tokens\.USDT\.eip3009 is only for tokens of EVM networks/);
  });

  test('unset or blank adds nothing', () => {
    expect(loadNetworks({ PAYDESK_NETWORKS: '' }).all()).toHaveLength(14);
    expect(loadNetworks({ PAYDESK_NETWORKS: ' [] ' }).all()).toHaveLength(14);
  });

  test('bad JSON, or JSON that is not an array, says so', () => {
    expect(configProblem({ PAYDESK_NETWORKS: '[{"name": "x",}]' })).toMatch(
      /^PAYDESK_NETWORKS is not valid JSON/,
    );
    expect(configProblem({ PAYDESK_NETWORKS: '{"name": "x"}' })).toBe(
      'PAYDESK_NETWORKS must be a JSON array of networks',
    );
  });

  test.each([
    [{ ...HARDHAT, chainId: '31337' }, /PAYDESK_NETWORKS\[0\] \("hardhat"\): chainId: Expected integer/],
    [
      { ...HARDHAT, name: 'Hard Hat' },
      /\[0\] \("Hard Hat"\): name: Expected string to match .* \(1 to 32 of a-z, 0-9 and -\)/,
    ],
    [{ ...HARDHAT, confirmations: 0 }, /confirmations: Expected integer to be greater or equal to 1/],
    [{ ...HARDHAT, colour: 'red' }, /\("hardhat"\): colour: Unexpected property/],
    [{ ...HARDHAT, tokens: { DAI: HARDHAT.tokens.USDT } }, /tokens\.DAI: Unexpected property/],
    [{ ...HARDHAT, tokens: { USDT: { address: '0x12', decimals: 6 } } }, /tokens\.USDT\.address: .*40 hex/],
    [
      {
        ...HARDHAT,
        tokens: { USDT: { address: '0x5FbDB2315678afecb367f032d93F642f64180AA3', decimals: 6 } },
      },
      /tokens\.USDT\.address fails its EIP-55 checksum/,
    ],
    [{ name: 'hardhat', chainId: 31337 }, /a new network needs testnet, confirmations, tokens/],
    [{ ...HARDHAT, name: 'sandbox' }, /"sandbox" is the simulated network/],
    [{ name: 'base', chainId: 1 }, /chainId of built-in network "base" is 8453 and cannot change/],
    [{ ...HARDHAT, chainId: 137 }, /networks "polygon" and "hardhat" share chainId 137/],
    [{ ...HARDHAT, explorer: 'javascript:alert(1)//' }, /explorer: .*http\(s\) URL prefix/],
    ['hardhat', /\[0\]: entry: Expected object/],
  ])('refuses %j with a message naming the field', (entry, expected) => {
    expect(configProblem({ PAYDESK_NETWORKS: JSON.stringify([entry]) })).toMatch(expected);
  });

  test('reports every problem at once, and the RPC variable of an added network counts as known', () => {
    const message = configProblem({
      PAYDESK_NETWORKS: JSON.stringify([{ ...HARDHAT, confirmations: -1 }, { name: 'x' }]),
      PAYDESK_RPC_HARDHAT: 'http://127.0.0.1:8545',
    });
    expect(message).toMatch(
      /\[0\] \("hardhat"\): confirmations: .*; PAYDESK_NETWORKS\[1\] \("x"\): a new network/,
    );
    expect(message).not.toMatch(/names no network/);
  });
});
