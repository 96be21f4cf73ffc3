/**
 * Gas and bytes per deposit: collecting through forwarders against the usual route, side by side on
 * one local Hardhat node (Prague rules), for three tokens: a minimal ERC-20, a USDC-like one
 * (test/chain/UsdcLike.sol) and a Tether-like one. See bench/README.md, "Deposit forwarders".
 *   npm run bench:gas
 * The usual route, per deposit: the collector sends gas to a fresh deposit address (an EOA), then
 * that address transfers its token to the payout. The forwarder route: one `collect` per batch; the
 * first collection deploys each forwarder, a re-collection (new payments to the same forwarders) does not.
 * Every measured transaction is signed here and sent raw, so its size is the bytes a rollup posts.
 */
import { randomBytes } from 'node:crypto';
import {
  type Abi,
  type Address,
  encodeFunctionData,
  type Hex,
  type PrivateKeyAccount,
  parseEther,
  parseSignature,
  size,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { forwarderAddress } from '../src/forwarders/address.js';
import { FACTORY_ABI } from '../src/forwarders/artifact.js';
import { EIP3009_ABI } from '../src/gasless/chain.js';
import { typedData } from '../src/gasless/typed-data.js';
import { type LocalChain, startChain, TOKEN_ABI } from '../test/chain.js';
import { deployHostile, hostileAbi, installFactory } from '../test/forwarders.js';
import { deployUsdcLike, USDC_LIKE_ABI } from '../test/usdc-like.js';

const AMOUNT = 1_000_000n;
const PER_TX = 100;

interface Sent {
  gas: bigint;
  bytes: number;
}

/** Signs with `from`'s own key and sends raw; waits for the receipt (the node mines at once). */
async function send(
  chain: LocalChain,
  from: PrivateKeyAccount,
  to: Address,
  data?: Hex,
  value?: bigint,
): Promise<Sent> {
  const request = await chain.wallet.prepareTransactionRequest({
    account: from,
    to,
    data,
    value,
    chain: chain.wallet.chain,
  });
  const raw = await from.signTransaction(request as Parameters<PrivateKeyAccount['signTransaction']>[0]);
  const hash = await chain.publicClient.sendRawTransaction({ serializedTransaction: raw });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return { gas: receipt.gasUsed, bytes: size(raw) };
}

interface Token {
  label: string;
  address: Address;
  abi: Abi;
  /** Credits every address with `amount` (AMOUNT by default), in one transaction (not measured). */
  fund(to: Address[], amount?: bigint): Promise<void>;
}

async function tokens(chain: LocalChain): Promise<Token[]> {
  const minimal = await chain.deployToken({ symbol: 'MIN', decimals: 6 });
  const usdc = (await deployUsdcLike(chain)).address;
  const tether = await deployHostile(chain, 'TetherLike');
  const sender = chain.accounts[0] as Address;
  // Both test tokens mint to many addresses in one transaction.
  const mintMany =
    (address: Address, abi: Abi) =>
    async (to: Address[], amount = AMOUNT) => {
      const hash = await chain.wallet.writeContract({
        address,
        abi,
        functionName: 'mintMany',
        args: [to, amount],
        gas: 100_000n + 30_000n * BigInt(to.length),
      });
      await wait(chain, hash);
    };
  return [
    {
      // Kept beside the real tokens' likenesses: the cheapest transfer, so the least a forwarder saves.
      label: 'minimal ERC-20 (TestToken: no proxy, no pause, no blacklist)',
      address: minimal,
      abi: TOKEN_ABI,
      async fund(to, amount = AMOUNT) {
        await chain.mint(minimal, sender, amount * BigInt(to.length));
        await wait(
          chain,
          await chain.batchTransfer(
            minimal,
            to,
            to.map(() => amount),
          ),
        );
      },
    },
    {
      label: "USDC-like (UsdcLike: FiatToken v2.2's proxy, pause and blacklist reads)",
      address: usdc,
      abi: USDC_LIKE_ABI,
      fund: mintMany(usdc, USDC_LIKE_ABI),
    },
    {
      label: 'Tether-like (TetherLike: no return value)',
      address: tether,
      abi: hostileAbi('TetherLike'),
      fund: mintMany(tether, hostileAbi('TetherLike')),
    },
  ];
}

async function wait(chain: LocalChain, hash: Hex) {
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

/** Gas to a fresh EOA, then its transfer to the payout; the average over `n` deposits. */
async function usualRoute(
  chain: LocalChain,
  collector: PrivateKeyAccount,
  token: Token,
  payout: Address,
  n: number,
) {
  const owners = Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()));
  await token.fund(owners.map((o) => o.address));
  let gas = 0n;
  let bytes = 0;
  for (const owner of owners) {
    const funded = await send(chain, collector, owner.address, undefined, parseEther('0.001'));
    const data = encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [payout, AMOUNT] });
    const moved = await send(chain, owner, token.address, data);
    gas += funded.gas + moved.gas;
    bytes += funded.bytes + moved.bytes;
  }
  return { gas: Number(gas) / n, bytes: bytes / n };
}

/** One first collection of every (salt, token) item, funded beforehand (not measured): its gas. */
async function collectItems(
  chain: LocalChain,
  collector: PrivateKeyAccount,
  factory: Address,
  payout: Address,
  items: Array<{ salt: Hex; token: Address }>,
) {
  const fresh = new Set(items.map((i) => i.salt)).size;
  const data = encodeFunctionData({
    abi: FACTORY_ABI,
    functionName: 'collect',
    args: [payout, items, BigInt(fresh)],
  });
  return (await send(chain, collector, factory, data)).gas;
}

const DUST = 20;
const DUST_AMOUNT = AMOUNT / 2n;

/**
 * The dust rule (contract §22, PAYDESK_COLLECT_MIN_DEPOSIT_USD = 1): 100 fresh forwarders, DUST of
 * them holding only 0.50, the others 1.00. Without the rule one collection takes all 100; with it the
 * dust waits and the collection takes the others. Then what a dust deposit costs when it rides with
 * a larger deposit of its forwarder (a second token of a forwarder the collection deploys anyway).
 */
async function dustRule(
  chain: LocalChain,
  collector: PrivateKeyAccount,
  factory: Address,
  token: Token,
  other: Token,
  payout: Address,
) {
  const run = async (withRule: boolean) => {
    const all = salts(100);
    const [dust, worth] = [all.slice(0, DUST), all.slice(DUST)];
    const at = (s: Hex[]) => s.map((salt) => forwarderAddress(factory, payout, salt));
    await token.fund(at(dust), DUST_AMOUNT);
    await token.fund(at(worth));
    const taken = withRule ? worth : all;
    const gas = await collectItems(
      chain,
      collector,
      factory,
      payout,
      taken.map((salt) => ({ salt, token: token.address })),
    );
    const usd = Number(withRule ? 0n : BigInt(DUST) * DUST_AMOUNT) / 1e6 + worth.length;
    return { deposits: taken.length, gas, usd };
  };
  const line = (label: string, r: { deposits: number; gas: bigint; usd: number }) =>
    process.stdout.write(
      `  ${label.padEnd(18)} ${String(r.deposits).padStart(3)} deposits  ${fmt(Number(r.gas)).padStart(10)} gas  ` +
        `${fmt(Number(r.gas) / r.deposits).padStart(7)} gas/deposit  ${fmt(Number(r.gas) / r.usd).padStart(7)} gas per USD moved (${r.usd.toFixed(2)} USD)\n`,
    );
  process.stdout.write(
    `\n  dust rule: 100 fresh forwarders, ${DUST} holding only 0.50, ${100 - DUST} holding 1.00 (${token.label.split(' (')[0]})\n`,
  );
  line('without the rule', await run(false));
  line('with the rule', await run(true));
  await rider(chain, collector, factory, token, other, payout);
}

/** What a dust deposit costs when a larger deposit of its forwarder carries it (a second token). */
async function rider(
  chain: LocalChain,
  collector: PrivateKeyAccount,
  factory: Address,
  token: Token,
  other: Token,
  payout: Address,
) {
  // 50 forwarders with 1.00 of `token`; then 50 more that also hold 0.50 of `other`.
  const alone = salts(50);
  const carried = salts(50);
  await token.fund([...alone, ...carried].map((salt) => forwarderAddress(factory, payout, salt)));
  await other.fund(
    carried.map((salt) => forwarderAddress(factory, payout, salt)),
    DUST_AMOUNT,
  );
  const one = await collectItems(
    chain,
    collector,
    factory,
    payout,
    alone.map((salt) => ({ salt, token: token.address })),
  );
  const two = await collectItems(
    chain,
    collector,
    factory,
    payout,
    carried.flatMap((salt) => [
      { salt, token: token.address },
      { salt, token: other.address },
    ]),
  );
  process.stdout.write(
    `  a dust deposit carried by a larger one of its forwarder: ${fmt(Number(two - one) / 50)} gas more per forwarder ` +
      `(${fmt(Number(two) / 100)} gas/deposit in that collection of 100)\n`,
  );
}

/** Collections of `salts` in transactions of PER_TX; totals. */
async function collect(
  chain: LocalChain,
  collector: PrivateKeyAccount,
  factory: Address,
  token: Token,
  payout: Address,
  salts: Hex[],
  fresh: boolean,
) {
  await token.fund(salts.map((s) => forwarderAddress(factory, payout, s)));
  let gas = 0n;
  let bytes = 0;
  let transactions = 0;
  for (let i = 0; i < salts.length; i += PER_TX) {
    const items = salts.slice(i, i + PER_TX).map((salt) => ({ salt, token: token.address }));
    const hint = fresh ? BigInt(items.length) : 0n;
    const data = encodeFunctionData({
      abi: FACTORY_ABI,
      functionName: 'collect',
      args: [payout, items, hint],
    });
    const sent = await send(chain, collector, factory, data);
    gas += sent.gas;
    bytes += sent.bytes;
    transactions++;
  }
  return { gas, bytes, transactions };
}

/**
 * Contract §23: the relayer's gas per gasless payment (a payer's signed transferWithAuthorization to a
 * payout that holds the token), and the deposit route's payer transfer (to a fresh, empty deposit
 * address), each averaged over `n` payers who hold only the token.
 */
async function gaslessRoute(
  chain: LocalChain,
  relayer: PrivateKeyAccount,
  token: Token,
  payout: Address,
  n: number,
) {
  const payers = Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()));
  await token.fund(payers.map((p) => p.address));
  let gas = 0n;
  let bytes = 0;
  for (const payer of payers) {
    const message = {
      from: payer.address,
      to: payout,
      value: AMOUNT,
      validAfter: 0n,
      validBefore: 2n ** 40n,
      nonce: `0x${randomBytes(32).toString('hex')}` as Hex,
    };
    const domain = { name: 'USD-like test coin', version: '2' };
    const signature = await payer.signTypedData(typedData(domain, chain.chainId, token.address, message));
    const { r, s, v } = parseSignature(signature);
    const data = encodeFunctionData({
      abi: EIP3009_ABI,
      functionName: 'transferWithAuthorization',
      args: [
        message.from,
        message.to,
        message.value,
        0n,
        message.validBefore,
        message.nonce,
        Number(v),
        r,
        s,
      ],
    });
    const sent = await send(chain, relayer, token.address, data);
    gas += sent.gas;
    bytes += sent.bytes;
  }
  // The deposit route's first half: a payer (with gas) sends the token to a fresh deposit address.
  const holders = Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()));
  await token.fund(holders.map((h) => h.address));
  let deposit = 0n;
  for (const holder of holders) {
    await wait(chain, await chain.wallet.sendTransaction({ to: holder.address, value: parseEther('0.01') }));
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    const data = encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [fresh, AMOUNT] });
    deposit += (await send(chain, holder, token.address, data)).gas;
  }
  return { gas: Number(gas) / n, bytes: bytes / n, deposit: Number(deposit) / n };
}

const salts = (n: number) => Array.from({ length: n }, () => `0x${randomBytes(32).toString('hex')}` as Hex);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main() {
  const chain = await startChain();
  try {
    const factory = await installFactory(chain);
    const collector = privateKeyToAccount(generatePrivateKey());
    await wait(
      chain,
      await chain.wallet.sendTransaction({ to: collector.address, value: parseEther('100') }),
    );
    const all = await tokens(chain);
    for (const token of all) {
      // The payout already holds the token, as a merchant's address does after the first sale.
      const payout = privateKeyToAccount(generatePrivateKey()).address;
      await token.fund([payout]);
      const usual = await usualRoute(chain, collector, token, payout, 20);
      process.stdout.write(
        `\n${token.label}\n  usual route: ${fmt(usual.gas)} gas, ${fmt(usual.bytes)} bytes per deposit (two transactions)\n`,
      );
      process.stdout.write('  deposits  collection        gas/deposit  ratio  bytes/deposit\n');
      const row = (n: number, kind: string, r: { gas: bigint; bytes: number }) => {
        const perDeposit = Number(r.gas) / n;
        const ratio = (perDeposit / usual.gas).toFixed(2);
        process.stdout.write(
          `  ${String(n).padStart(8)}  ${kind.padEnd(16)} ${fmt(perDeposit).padStart(10)}  ${ratio.padStart(5)}  ${fmt(r.bytes / n).padStart(13)}\n`,
        );
      };
      for (const n of [1, 10, 100]) {
        const batch = salts(n);
        row(n, 'first', await collect(chain, collector, factory, token, payout, batch, true));
        row(n, 're-collect', await collect(chain, collector, factory, token, payout, batch, false));
      }
      // What the `fresh` hint is worth: the same first collection, the factory looking at each address.
      row(100, 'first, no hint', await collect(chain, collector, factory, token, payout, salts(100), false));
      if (token.label.startsWith('USDC-like')) {
        const signed = await gaslessRoute(chain, collector, token, payout, 20);
        const share =
          Number((await collect(chain, collector, factory, token, payout, salts(100), true)).gas) / 100;
        process.stdout.write(
          `  gasless (EIP-3009, contract §23): relayer ${fmt(signed.gas)} gas, ${fmt(signed.bytes)} bytes per payment; ` +
            `deposit route: payer's transfer ${fmt(signed.deposit)} + share of a 100-deposit collection ${fmt(share)} = ` +
            `${fmt(signed.deposit + share)} gas (the merchant pays ${fmt(share)} of it)\n`,
        );
      }
      const thousand = await collect(chain, collector, factory, token, payout, salts(1000), true);
      process.stdout.write(
        `  1,000 deposits, first collection: ${thousand.transactions} transactions, ${fmt(Number(thousand.gas))} gas in all ` +
          `(usual route: 2,000 transactions, ${fmt(usual.gas * 1000)} gas)\n`,
      );
      // The dust rule, for the stablecoin likenesses (the other one rides as the second token).
      const rider = all.find((o) => o !== token && o.label !== all[0]?.label) as Token;
      if (token !== all[0]) await dustRule(chain, collector, factory, token, rider, payout);
    }
  } finally {
    await chain.stop();
  }
}

await main();
