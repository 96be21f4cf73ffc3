import { parseArgs } from 'node:util';
import { BaseError, createPublicClient, createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ConfigError, loadConfig } from '../src/config.js';
import { collectorKeyVariable } from '../src/forwarders/collector-key.js';
import { deployFactory, FactoryDeployError } from '../src/forwarders/deploy.js';
import { rpcVariable } from '../src/networks/registry.js';

/**
 * `npm run factory -- deploy --network <name>`: deploys the forwarder factory on one network through
 * the deterministic-deployment proxy, paid by the network's collector key; says so and sends nothing
 * when it is already there. The key and the RPC URL are secrets: neither is ever printed, not even in
 * an error (viem's errors name the URL, so only their short message is shown).
 */
const USAGE = 'usage: npm run factory -- deploy --network <name>';

class UsageError extends Error {}

async function main(): Promise<string> {
  const { positionals, values } = parseArgs({
    options: { network: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals[0] !== 'deploy' || positionals.length !== 1 || !values.network) throw new UsageError(USAGE);
  const name = values.network;
  const config = loadConfig(process.env);
  const network = config.networks.get(name);
  if (network?.family !== 'evm') {
    const evm = config.networks.all().filter((n) => n.family === 'evm');
    throw new UsageError(`"${name}" is no EVM network (known: ${evm.map((n) => n.name).join(', ')})`);
  }
  if (!network.rpcUrl) throw new UsageError(`set ${rpcVariable(name)} to the network's RPC URL`);
  const key = config.collectorKey(name);
  if (!key)
    throw new UsageError(`set PAYDESK_COLLECTOR_KEY (or ${collectorKeyVariable(name)}): it pays the gas`);

  const chain = defineChain({
    id: network.chainId,
    name: network.label,
    nativeCurrency: { name: 'native coin', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [network.rpcUrl] } },
  });
  const transport = http(network.rpcUrl, { fetchOptions: { headers: network.rpcHeaders ?? {} } });
  const publicClient = createPublicClient({ chain, transport });
  const answered = await publicClient.getChainId();
  if (answered !== network.chainId) {
    throw new UsageError(
      `${rpcVariable(name)} answers chain id ${answered}, not ${name}'s ${network.chainId}`,
    );
  }
  const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(key) });
  const result = await deployFactory(publicClient, wallet);
  return result.status === 'deployed'
    ? `deployed the forwarder factory on ${name} at ${result.address} (transaction ${result.txHash}, ${result.gasUsed} gas)`
    : `the forwarder factory is already deployed on ${name} at ${result.address}; nothing sent`;
}

try {
  process.stdout.write(`${await main()}\n`);
} catch (error) {
  const known =
    error instanceof UsageError || error instanceof ConfigError || error instanceof FactoryDeployError;
  const message = known
    ? error.message
    : error instanceof BaseError
      ? error.shortMessage
      : 'unexpected error';
  process.stderr.write(`factory: ${message}\n`);
  process.exitCode = 1;
}
