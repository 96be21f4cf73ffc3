import { readFile } from 'node:fs/promises';
import solc from 'solc';

/**
 * The one way Paydesk compiles Solidity: solc-js from package.json (pinned, offline, no compiler
 * download) with fixed settings. scripts/compile-contracts.ts writes the artifacts; a test compiles
 * again and compares, so a committed artifact always is what its source compiles to.
 */
export const SETTINGS = {
  // Forwarders are called far more often than the factory is deployed: optimise for calls.
  optimizer: { enabled: true, runs: 10_000 },
  // Cancun: transient storage (the factory's reentrancy guard). Every chain Paydesk supports has it.
  evmVersion: 'cancun',
  // No metadata hash in the bytecode: editing a comment must not move the factory, and with it every
  // forwarder address. The compiler version and settings are in the artifact instead.
  metadata: { bytecodeHash: 'none' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const;

export interface Compiled {
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
}

interface Output {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts: Record<
    string,
    Record<
      string,
      { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >;
}

export const compilerVersion = () => `solc ${solc.version()}`;

/** Compiles one source file; every contract in it, by name. Throws on any compiler error or warning. */
export async function compile(source: URL): Promise<Record<string, Compiled>> {
  const name = source.pathname.split('/').pop() ?? 'source.sol';
  const input = {
    language: 'Solidity',
    sources: { [name]: { content: await readFile(source, 'utf8') } },
    settings: SETTINGS,
  };
  const output: Output = JSON.parse(solc.compile(JSON.stringify(input)));
  // Warnings too: a committed contract compiles clean.
  const errors = (output.errors ?? []).filter((e) => e.severity !== 'info');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return Object.fromEntries(
    Object.entries(output.contracts[name] ?? {}).map(([contract, c]) => [
      contract,
      {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      },
    ]),
  );
}

const FACTORY_SOURCE = new URL('../contracts/ForwarderFactory.sol', import.meta.url);
const HOSTILE_SOURCE = new URL('../test/chain/HostileTokens.sol', import.meta.url);
const USDC_LIKE_SOURCE = new URL('../test/chain/UsdcLike.sol', import.meta.url);

/** Every committed artifact, as the text of its file. */
export async function artifacts(): Promise<Array<{ path: URL; text: string }>> {
  const header = { compiler: compilerVersion(), settings: SETTINGS };
  const factory = await compile(FACTORY_SOURCE);
  const hostile = await compile(HOSTILE_SOURCE);
  const usdcLike = await compile(USDC_LIKE_SOURCE);
  const { ForwarderFactory, Forwarder } = factory;
  if (!ForwarderFactory || !Forwarder) throw new Error('ForwarderFactory.sol lost a contract');
  const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return [
    {
      path: new URL('../contracts/ForwarderFactory.json', import.meta.url),
      text: text({ ...header, ...ForwarderFactory, forwarder: { abi: Forwarder.abi } }),
    },
    {
      path: new URL('../test/chain/HostileTokens.json', import.meta.url),
      text: text({ ...header, contracts: hostile }),
    },
    {
      path: new URL('../test/chain/UsdcLike.json', import.meta.url),
      text: text({ ...header, contracts: usdcLike }),
    },
  ];
}
