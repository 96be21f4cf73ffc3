import type { NetworkSettings } from './network.js';

/*
 * The networks Paydesk knows without configuration (PAYDESK_NETWORKS adds or overrides).
 *
 * Confirmation depths follow common exchange practice per chain, weighed against its block time and
 * reorg history: Ethereum 12 (~2.5 min; full finality is two epochs, ~13 min); Polygon 64 (~2 min;
 * PoS reorgs of a few dozen blocks happened before milestones); BSC 15 (fast finality needs ~2);
 * on Arbitrum and Base a reorg would mean the sequencer equivocated, so 20 blocks only covers RPC
 * nodes lagging behind one another. Testnets are shallower: nothing of value rides on them.
 * Polling runs at about a third of the block time (Ethereum 12 s, Polygon and Base 2 s, BSC under
 * 1 s, Arbitrum 0.25 s: there the poll is bounded by RPC cost, not the block time).
 *
 * Tokens: the issuers' own contracts, as Tether and Circle publish them (EIP-55 checked by the tests). USDT is
 * absent where Tether issues none (Base) and on every testnet (no official testnet USDT exists);
 * Circle publishes no BSC testnet USDC, so bsc-testnet carries no token until an operator adds one.
 *
 * TRON (docs/networks.md, "TRON"): 19 confirmations, the depth at which a block is solidified (19 of
 * the 27 super representatives have built on it; java-tron's `finalized` tag names that block). Blocks
 * come every 3 s; the poll of 4 s keeps a watcher under about 86,400 calls a day (at most 4 a step),
 * within TronGrid's free daily quota. 20 blocks a log query keep a busy mainnet range well under the
 * node's 10,000-result cap (USDT alone makes about 100 transfers a block). USDT only: Circle ended
 * USDC on TRON in 2024. Nile's test USDT is the contract TRON's wallet-cli documentation uses.
 */
/*
 * EIP-3009 domains (contract §23; where each value comes from: docs/networks.md, "Gasless USDC"):
 * Circle's FiatToken signs under its `name()` and `version()`. Mainnet USDC says "USD Coin"; Circle's
 * newer testnet deployments say "USDC". Binance-Peg USDC (BSC) has no EIP-3009; Ethereum Sepolia's is
 * left out until its name() is read (an operator adds it with PAYDESK_NETWORKS).
 */
const USD_COIN = { name: 'USD Coin', version: '2' } as const;
const USDC_2 = { name: 'USDC', version: '2' } as const;

export const BUILT_IN_NETWORKS: readonly NetworkSettings[] = [
  {
    name: 'ethereum',
    label: 'Ethereum',
    family: 'evm',
    chainId: 1,
    testnet: false,
    confirmations: 12,
    pollIntervalMs: 4000,
    maxBlockRange: 500,
    explorer: 'https://etherscan.io/tx/',
    tokens: {
      USDT: { address: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 },
      USDC: { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6, eip3009: USD_COIN },
    },
  },
  {
    name: 'polygon',
    label: 'Polygon',
    family: 'evm',
    chainId: 137,
    testnet: false,
    confirmations: 64,
    pollIntervalMs: 2000,
    maxBlockRange: 1000,
    explorer: 'https://polygonscan.com/tx/',
    tokens: {
      USDT: { address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
      // Circle's native USDC, not the bridged USDC.e (0x2791…4174) that wallets now label as such.
      USDC: { address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', decimals: 6, eip3009: USD_COIN },
    },
  },
  {
    name: 'bsc',
    label: 'BNB Smart Chain',
    family: 'evm',
    chainId: 56,
    testnet: false,
    confirmations: 15,
    pollIntervalMs: 1500,
    maxBlockRange: 1000,
    explorer: 'https://bscscan.com/tx/',
    // Binance-Peg tokens: 18 decimals here, unlike the 6 everywhere else.
    tokens: {
      USDT: { address: '0x55d398326f99059fF775485246999027B3197955', decimals: 18 },
      USDC: { address: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18 },
    },
  },
  {
    name: 'arbitrum',
    label: 'Arbitrum One',
    family: 'evm',
    chainId: 42161,
    testnet: false,
    confirmations: 20,
    pollIntervalMs: 2000,
    maxBlockRange: 2000,
    explorer: 'https://arbiscan.io/tx/',
    tokens: {
      // USDT0: the original bridged USDT contract, upgraded in place, so the address is unchanged.
      USDT: { address: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', decimals: 6 },
      USDC: { address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', decimals: 6, eip3009: USD_COIN },
    },
  },
  {
    name: 'base',
    label: 'Base',
    family: 'evm',
    chainId: 8453,
    testnet: false,
    confirmations: 20,
    pollIntervalMs: 2000,
    maxBlockRange: 2000,
    explorer: 'https://basescan.org/tx/',
    tokens: {
      USDC: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6, eip3009: USD_COIN },
    },
  },
  {
    name: 'sepolia',
    label: 'Sepolia',
    family: 'evm',
    chainId: 11155111,
    testnet: true,
    confirmations: 3,
    pollIntervalMs: 4000,
    maxBlockRange: 500,
    explorer: 'https://sepolia.etherscan.io/tx/',
    tokens: { USDC: { address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', decimals: 6 } },
  },
  {
    name: 'polygon-amoy',
    label: 'Polygon Amoy',
    family: 'evm',
    chainId: 80002,
    testnet: true,
    confirmations: 16,
    pollIntervalMs: 2000,
    maxBlockRange: 1000,
    explorer: 'https://amoy.polygonscan.com/tx/',
    tokens: {
      USDC: { address: '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582', decimals: 6, eip3009: USDC_2 },
    },
  },
  {
    name: 'bsc-testnet',
    label: 'BNB Smart Chain Testnet',
    family: 'evm',
    chainId: 97,
    testnet: true,
    confirmations: 5,
    pollIntervalMs: 1500,
    maxBlockRange: 1000,
    explorer: 'https://testnet.bscscan.com/tx/',
    tokens: {},
  },
  {
    name: 'arbitrum-sepolia',
    label: 'Arbitrum Sepolia',
    family: 'evm',
    chainId: 421614,
    testnet: true,
    confirmations: 5,
    pollIntervalMs: 2000,
    maxBlockRange: 2000,
    explorer: 'https://sepolia.arbiscan.io/tx/',
    tokens: {
      USDC: { address: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d', decimals: 6, eip3009: USD_COIN },
    },
  },
  {
    name: 'base-sepolia',
    label: 'Base Sepolia',
    family: 'evm',
    chainId: 84532,
    testnet: true,
    confirmations: 5,
    pollIntervalMs: 2000,
    maxBlockRange: 2000,
    explorer: 'https://sepolia.basescan.org/tx/',
    tokens: {
      USDC: { address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', decimals: 6, eip3009: USDC_2 },
    },
  },
  {
    name: 'tron',
    label: 'TRON',
    family: 'tron',
    chainId: 0x2b6653dc,
    testnet: false,
    confirmations: 19,
    pollIntervalMs: 4000,
    maxBlockRange: 20,
    explorer: 'https://tronscan.org/#/transaction/',
    tokens: { USDT: { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 } },
  },
  {
    name: 'tron-nile',
    label: 'TRON Nile',
    family: 'tron',
    chainId: 0xcd8690dc,
    testnet: true,
    confirmations: 19,
    pollIntervalMs: 4000,
    maxBlockRange: 100,
    explorer: 'https://nile.tronscan.org/#/transaction/',
    tokens: { USDT: { address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', decimals: 6 } },
  },
  /*
   * Solana (docs/networks.md, "Solana"): no chain id (0: never compared), and no depth to count: a
   * payment is seen at the `confirmed` commitment and is final at `finalized` (about 13 s later).
   * `confirmations` and `maxBlockRange` are unused. The poll of 1 s follows `confirmed` closely
   * enough for detection within 2 s; a step costs about 1 call per merchant token account.
   * Tokens are SPL mints (token `address` = the mint). Devnet: Circle's devnet USDC; Tether issues
   * no devnet USDT, so there is none (an operator adds a mint of their own with PAYDESK_NETWORKS).
   */
  {
    name: 'solana',
    label: 'Solana',
    family: 'solana',
    chainId: 0,
    testnet: false,
    confirmations: 1,
    pollIntervalMs: 1000,
    maxBlockRange: 1,
    explorer: 'https://explorer.solana.com/tx/',
    tokens: {
      USDC: { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6 },
      USDT: { address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6 },
    },
  },
  {
    name: 'solana-devnet',
    label: 'Solana Devnet',
    family: 'solana',
    chainId: 0,
    testnet: true,
    confirmations: 1,
    pollIntervalMs: 1000,
    maxBlockRange: 1,
    explorer: 'https://explorer.solana.com/tx/{tx}?cluster=devnet',
    tokens: { USDC: { address: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', decimals: 6 } },
  },
];
