// Hardhat 2 as a plain local chain for tests (test/chain.ts starts it): no contracts to compile here,
// no forking, nothing fetched from the network.
module.exports = {
  networks: {
    hardhat: {
      // test/chain.ts startChain({ chainId }) runs a second node as another network.
      chainId: Number(process.env.PAYDESK_TEST_CHAIN_ID ?? 31337),
      // Prague, not the default Osaka: Osaka caps one transaction at 2^24 gas (EIP-7825), and the
      // benchmark's 1,000-recipient batchTransfer needs about 25 million.
      hardfork: 'prague',
      blockGasLimit: 100_000_000,
      mining: { auto: true, interval: 0 },
      loggingEnabled: false,
    },
  },
  // Keep Hardhat's own folders out of the source tree: `node` compiles nothing, but it resolves them.
  paths: {
    sources: './contracts-none',
    cache: '../../node_modules/.cache/hardhat-test-chain',
    artifacts: '../../node_modules/.cache/hardhat-test-chain/artifacts',
  },
};
