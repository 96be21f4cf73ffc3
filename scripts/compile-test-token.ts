import { readFile, writeFile } from 'node:fs/promises';
import solc from 'solc';

/**
 * Compiles test/chain/TestToken.sol with the bundled solc-js (offline: no compiler download) and
 * writes test/chain/TestToken.json, which is committed so tests never compile. Run after editing
 * the contract: `npx tsx scripts/compile-test-token.ts`.
 */
const SOURCE = new URL('../test/chain/TestToken.sol', import.meta.url);
const OUT = new URL('../test/chain/TestToken.json', import.meta.url);

interface Output {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

async function main() {
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: await readFile(SOURCE, 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Cancun runs on every hardfork the local chain may be set to; no newer opcode is needed.
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output: Output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts['TestToken.sol']?.TestToken;
  if (!contract) throw new Error('TestToken missing from the compiler output');
  const artifact = {
    compiler: `solc ${solc.version()}`,
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
  await writeFile(OUT, `${JSON.stringify(artifact, null, 2)}\n`);
  process.stdout.write(
    `wrote test/chain/TestToken.json (${contract.evm.bytecode.object.length / 2} bytes)\n`,
  );
}

await main();
