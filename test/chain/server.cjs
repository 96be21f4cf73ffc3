// Many local chains in one process (test/chain.ts startChain): Hardhat's runtime takes seconds of CPU
// to load, a chain on it a few milliseconds. So each test process starts this server once and asks it
// for chains; each chain is an in-memory Hardhat network with its own chain id and its own JSON-RPC
// server on its own port, exactly what `hardhat node` serves, and stopping one closes its port.
// Protocol, over the IPC channel: { id, op: 'start', chainId } → { id, port };
// { id, op: 'stop', port } → { id }; any failure → { id, error }.
'use strict';
require('./exit-with-parent.cjs');

const hre = require('hardhat');
const { createProvider } = require('hardhat/internal/core/providers/construction');
const { JsonRpcServer } = require('hardhat/internal/hardhat-network/jsonrpc/server');

const servers = new Map();

async function start(chainId) {
  const hardhat = { ...hre.config.networks.hardhat, chainId };
  const config = { ...hre.config, networks: { ...hre.config.networks, hardhat } };
  const provider = await createProvider(config, 'hardhat', hre.artifacts);
  // Port 0: the system picks a free one, so two chains never race for a port.
  const server = new JsonRpcServer({ hostname: '127.0.0.1', port: 0, provider });
  // Node closes a keep-alive connection idle for 5 s; on a loaded machine a client could pick that
  // socket for its next call just as the server closed it ("other side closed"). Idle connections
  // stay open for a minute instead, longer than any pause between a test's calls.
  server._httpServer.keepAliveTimeout = 60_000;
  server._httpServer.headersTimeout = 61_000;
  const { port } = await server.listen();
  servers.set(port, server);
  return { port };
}

async function stop(port) {
  const server = servers.get(port);
  servers.delete(port);
  await server?.close();
  return {};
}

process.on('message', async ({ id, op, chainId, port }) => {
  try {
    const result = op === 'start' ? await start(chainId) : await stop(port);
    process.send({ id, ...result });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
// A failure inside one chain is that chain's test's to see (its calls fail), not the end of the others.
process.on('uncaughtException', (error) => console.error('chain server:', error));
process.on('unhandledRejection', (error) => console.error('chain server:', error));
// The test process that asked for the chains is gone: so are they.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
