import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { checksumAddress } from '../networks/evm-address.js';
import { type Currency, type Network, type NetworkRegistry, SANDBOX } from '../networks/network.js';
import { owedUnits } from './amounts.js';
import { readyOn } from './browse.repository.js';
import type { RefundRow } from './refund.table.js';
import { safeChecksum } from './safe-checksum.js';

/**
 * The ready refunds of one EVM network as one batch a merchant's Safe signs (contract §22): a file
 * Safe's Transaction Builder imports as is ("Load batch"), one ERC-20 `transfer(to, value)` per
 * refund, executed together through the Safe's MultiSend as one transaction. The watcher matches each
 * transfer of that transaction to one refund (match.ts), so the whole batch confirms together. TRON
 * has no Safe: its refunds go out from the CSV.
 */

/** At most this many transfers in one file, oldest first: a batch that fits well in one block's gas. */
export const SAFE_BATCH_MAX = 100;

/** The Transaction Builder's format version this file follows; it imports any `1.0` batch file. */
const TX_BUILDER_VERSION = '1.18.0';

const TRANSFER = {
  inputs: [
    { internalType: 'address', name: 'to', type: 'address' },
    { internalType: 'uint256', name: 'value', type: 'uint256' },
  ],
  name: 'transfer',
  payable: false,
};

export interface SafeTransaction {
  to: string;
  value: string;
  data: null;
  contractMethod: typeof TRANSFER;
  contractInputsValues: { to: string; value: string };
}

export interface SafeBatchFile {
  version: '1.0';
  chainId: string;
  createdAt: number;
  meta: {
    name: string;
    description: string;
    txBuilderVersion: string;
    createdFromSafeAddress: string;
    createdFromOwnerAddress: string;
    checksum?: string;
  };
  transactions: SafeTransaction[];
}

/** The project's ready refunds on `networkName` as a Transaction Builder file, and how many it holds. */
export async function safeBatch(
  db: Kysely<Database>,
  projectId: string,
  networkName: string,
  networks: NetworkRegistry,
  now: Date,
): Promise<{ file: SafeBatchFile; network: Network }> {
  const network = evmNetwork(networks, networkName);
  const rows = await readyOn(db, projectId, network.name, SAFE_BATCH_MAX);
  const paid = rows.flatMap((r) => transferOf(r, network).map((tx) => ({ id: r.id, tx })));
  if (paid.length === 0) {
    const message = `No refund is ready to send on ${network.label}`;
    throw ApiError.validation([{ in: 'query', field: 'network', rule: 'nothing_ready', message }]);
  }
  const file = batchFile(network, paid, now);
  return { file, network };
}

function batchFile(network: Network, paid: Array<{ id: string; tx: SafeTransaction }>, now: Date) {
  const file: SafeBatchFile = {
    version: '1.0',
    chainId: String(network.chainId),
    createdAt: now.getTime(),
    meta: {
      name: `Paydesk refunds on ${network.label}, ${now.toISOString().slice(0, 10)}`,
      description: `${paid.length} ready refunds, oldest first: ${paid.map((p) => p.id).join(', ')}`,
      txBuilderVersion: TX_BUILDER_VERSION,
      createdFromSafeAddress: '',
      createdFromOwnerAddress: '',
    },
    transactions: paid.map((p) => p.tx),
  };
  file.meta.checksum = safeChecksum(file);
  return file;
}

/** The transfer that pays a ready refund: its token's contract, its address, what it is owed. */
function transferOf(r: RefundRow, network: Network): SafeTransaction[] {
  const token = network.tokens[r.token as Currency];
  // A token since removed from the network's configuration: the watcher could not see its transfer.
  if (!token || r.address === null || r.token_amount === null) return [];
  const value = owedUnits(r.token_amount, token.decimals).toString();
  return [
    {
      to: checksumAddress(token.address),
      value: '0',
      data: null,
      contractMethod: TRANSFER,
      contractInputsValues: { to: checksumAddress(r.address), value },
    },
  ];
}

function evmNetwork(networks: NetworkRegistry, name: string): Network {
  const network = networks.get(name);
  if (name === SANDBOX) {
    const message = 'The sandbox has no chain and no Safe: no wallet pays its refunds';
    throw ApiError.validation([{ in: 'query', field: 'network', rule: 'not_evm', message }]);
  }
  if (!network) {
    throw ApiError.validation([
      { in: 'query', field: 'network', rule: 'enum', message: `No network is named ${name}` },
    ]);
  }
  if (network.family !== 'evm') {
    const message = `${network.label} is not an EVM network: Safe batches are for EVM networks; export the CSV instead`;
    throw ApiError.validation([{ in: 'query', field: 'network', rule: 'not_evm', message }]);
  }
  return network;
}
