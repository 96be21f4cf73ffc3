import { type Address, parseAbiItem } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAMILY } from '../src/networks/family.js';
import { deriveAddress, parseXpub } from '../src/networks/xpub.js';
import { TEST_XPUB } from './chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from './chain.js';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const merchant = parseXpub(TEST_XPUB);
const depositAt = (index: number) => deriveAddress(merchant, index, FAMILY.evm) as Address;

let chain: LocalChain;
let usdt: Address;

beforeAll(async () => {
  chain = await startChain();
  usdt = await chain.deployToken({ symbol: 'USDT', decimals: 6 });
});
afterAll(stopAllChains);

describe('the local chain harness', () => {
  test('a real hardhat node with 20 funded accounts and a 6-decimal token', async () => {
    expect(chain.chainId).toBe(31337);
    expect(await chain.publicClient.getChainId()).toBe(31337);
    expect(chain.accounts).toHaveLength(20);
    expect(chain.accounts[0]).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    const read = (functionName: 'decimals' | 'symbol') =>
      chain.publicClient.readContract({ address: usdt, abi: TOKEN, functionName });
    expect(await read('decimals')).toBe(6);
    expect(await read('symbol')).toBe('USDT');
  });

  test('a transfer to a deposit address is read back from the Transfer logs', async () => {
    const payer = chain.accounts[1] as Address;
    const deposit = depositAt(0);
    await chain.mint(usdt, payer, 25_000_000n);
    const hash = await chain.transfer(usdt, deposit, 10_500_000n, payer);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const logs = await chain.publicClient.getLogs({
      address: usdt,
      event: TRANSFER,
      args: { to: deposit },
      fromBlock: 0n,
      toBlock: 'latest',
    });
    expect(logs).toHaveLength(1);
    expect(logs[0]?.args).toEqual({ from: payer, to: deposit, value: 10_500_000n });
    expect(logs[0]?.transactionHash).toBe(hash);
    expect(logs[0]?.blockNumber).toBe(receipt.blockNumber);
    expect(await chain.blockNumber()).toBe(receipt.blockNumber);
  });

  test('revert to a snapshot drops the mined blocks: the same height gets another block, without the log', async () => {
    const deposit = depositAt(1);
    const id = await chain.snapshot();
    const height = await chain.blockNumber();
    await chain.transfer(usdt, deposit, 1n, chain.accounts[1]);
    const first = await chain.publicClient.getBlock({ blockNumber: height + 1n });
    expect(await depositLogs(deposit)).toHaveLength(1);

    await chain.revert(id);
    expect(await chain.blockNumber()).toBe(height);
    await chain.mine();
    const second = await chain.publicClient.getBlock({ blockNumber: height + 1n });
    expect(second.hash).not.toBe(first.hash);
    expect(await depositLogs(deposit)).toHaveLength(0);
  });

  test('with automine off, transactions wait until mine() puts them in one block', async () => {
    const height = await chain.blockNumber();
    await chain.setAutomine(false);
    try {
      const a = await chain.transfer(usdt, depositAt(2), 1n, chain.accounts[1]);
      const b = await chain.transfer(usdt, depositAt(3), 1n, chain.accounts[1]);
      expect(await chain.blockNumber()).toBe(height);
      await chain.mine();
      const [ra, rb] = await Promise.all(
        [a, b].map((hash) => chain.publicClient.getTransactionReceipt({ hash })),
      );
      expect([ra?.blockNumber, rb?.blockNumber]).toEqual([height + 1n, height + 1n]);
    } finally {
      await chain.setAutomine(true);
    }
  });

  test('a batchTransfer to 1,000 recipients lands 1,000 Transfer logs in one block', async () => {
    const recipients = Array.from({ length: 1000 }, (_, i) => depositAt(1000 + i));
    const amounts = recipients.map((_, i) => BigInt(i + 1));
    await chain.mint(usdt, chain.accounts[0] as Address, 1000n * 1001n);
    const hash = await chain.batchTransfer(usdt, recipients, amounts);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const logs = await chain.publicClient.getLogs({
      address: usdt,
      event: TRANSFER,
      fromBlock: receipt.blockNumber,
      toBlock: receipt.blockNumber,
    });
    expect(logs).toHaveLength(1000);
    expect(logs.map((l) => l.args.to)).toEqual(recipients);
    expect(logs[999]?.args.value).toBe(1000n);
  }, 60_000);

  test('stop() ends the chain: its port refuses connections, and the other chains answer on', async () => {
    const other = await startChain();
    expect(await other.blockNumber()).toBeGreaterThanOrEqual(0n);
    await other.stop();
    await expect(fetch(other.rpcUrl, { method: 'POST' })).rejects.toThrow();
    expect(await chain.blockNumber()).toBeGreaterThan(0n);
  }, 60_000);
});

const TOKEN = [
  parseAbiItem('function decimals() view returns (uint8)'),
  parseAbiItem('function symbol() view returns (string)'),
];

async function depositLogs(to: Address) {
  return chain.publicClient.getLogs({ address: usdt, event: TRANSFER, args: { to }, fromBlock: 0n });
}
