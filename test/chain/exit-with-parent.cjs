// Preloaded into the hardhat node (test/chain.ts): when the test process that started it dies, even by
// SIGKILL where no exit handler runs, the node is re-parented and stops itself instead of lingering.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500).unref();
