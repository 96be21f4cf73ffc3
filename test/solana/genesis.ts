import {
  type Address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  type Instruction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { FailedTransactionMetadata, type LiteSVM } from 'litesvm';
import { ata } from './wallet.js';

export const SOL = 1_000_000_000n;

/**
 * Accounts that exist "since genesis": the mints, funded payers, merchants' token accounts. They
 * are made by real transactions of the real programs, executed straight on LiteSVM and kept out of
 * the ledger, so no RPC answer lists them (a payment's history starts with the payment).
 */
export async function createGenesis(svm: LiteSVM) {
  const authority = await generateKeyPairSigner();
  const airdrop = (owner: Address, amount: bigint) => {
    const result = svm.airdrop(owner, lamports(amount));
    if (!result || result instanceof FailedTransactionMetadata)
      throw new Error(`airdrop failed: ${String(result)}`);
  };
  airdrop(authority.address, 1_000_000n * SOL);

  // Signers inside the instructions (a new mint's key) sign with the authority, the fee payer.
  const run = async (instructions: Instruction[]) => {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(authority, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n },
          m,
        ),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const result = svm.sendTransaction(await signTransactionMessageWithSigners(message));
    if (result instanceof FailedTransactionMetadata)
      throw new Error(`genesis transaction failed: ${result.toString()}`);
  };

  const createAtas = (owner: Address, mints: Address[]) =>
    Promise.all(
      mints.map(async (mint) =>
        getCreateAssociatedTokenIdempotentInstruction({
          payer: authority,
          ata: await ata(owner, mint),
          owner,
          mint,
        }),
      ),
    );

  return {
    async createMint(decimals: number): Promise<Address> {
      const mint = await generateKeyPairSigner();
      const space = BigInt(getMintSize());
      await run([
        getCreateAccountInstruction({
          payer: authority,
          newAccount: mint,
          lamports: svm.minimumBalanceForRentExemption(space),
          space,
          programAddress: TOKEN_PROGRAM_ADDRESS,
        }),
        getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: authority.address }),
      ]);
      return mint.address;
    },
    async createAtas(owner: Address, mints: Address[]) {
      await run(await createAtas(owner, mints));
    },
    async mint(owner: Address, tokens: [Address, bigint][]) {
      const mintTo = await Promise.all(
        tokens.map(async ([mint, amount]) =>
          getMintToInstruction({ mint, token: await ata(owner, mint), mintAuthority: authority, amount }),
        ),
      );
      await run([
        ...(await createAtas(
          owner,
          tokens.map(([m]) => m),
        )),
        ...mintTo,
      ]);
    },
    airdrop,
  };
}
