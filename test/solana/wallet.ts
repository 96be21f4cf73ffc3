import {
  AccountRole,
  type Address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getAddMemoInstruction } from '@solana-program/memo';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';

const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address;

/** A payer's wallet: its owner address and the signer @solana/kit signs with. */
export interface Payer {
  readonly address: Address;
  readonly signer: KeyPairSigner;
}

export interface Payment {
  recipient: string;
  mint: string;
  amount: bigint;
  references?: string[];
  memo?: string;
  createRecipientAta?: boolean;
  /** The mint's decimals (TransferChecked states them); 6 for the cluster's USDC and USDT. */
  decimals?: number;
  /** Legacy or v0 message; wallets send both. Default 0. */
  version?: 'legacy' | 0;
  /** Send without the node's preflight simulation: a failing transfer then lands, failed, fee paid. */
  skipPreflight?: boolean;
}

export const ata = async (owner: string, mint: string): Promise<Address> =>
  (
    await findAssociatedTokenPda({
      owner: owner as Address,
      mint: mint as Address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    })
  )[0];

/**
 * The instructions a Solana Pay wallet builds for an SPL transfer request: create the recipient's
 * token account if asked (idempotent), the memo right before the transfer (the Solana Pay spec),
 * and TransferChecked from the payer's to the recipient's associated token account with each
 * `reference` appended as a read-only, non-signer key.
 */
export async function paymentInstructions(payer: Payer, p: Payment): Promise<Instruction[]> {
  const mint = p.mint as Address;
  const recipient = p.recipient as Address;
  const destination = await ata(recipient, mint);
  const instructions: Instruction[] = [];
  if (p.createRecipientAta) {
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({
        payer: payer.signer,
        ata: destination,
        owner: recipient,
        mint,
      }),
    );
  }
  // The SPL Memo program wallets and Solana Pay use (@solana-program/memo defaults to a newer address).
  if (p.memo !== undefined)
    instructions.push(getAddMemoInstruction({ memo: p.memo }, { programAddress: MEMO_PROGRAM }));
  const transfer = getTransferCheckedInstruction({
    source: await ata(payer.address, mint),
    mint,
    destination,
    authority: payer.signer,
    amount: p.amount,
    decimals: p.decimals ?? 6,
  });
  const references = (p.references ?? []).map((r) => ({ address: r as Address, role: AccountRole.READONLY }));
  instructions.push({ ...transfer, accounts: [...transfer.accounts, ...references] });
  return instructions;
}

/** Builds and signs a payment as a wallet does, with a blockhash from the node; returns the wire transaction (base64) and its signature. */
export async function signPayment(rpcUrl: string, payer: Payer, p: Payment) {
  const rpc = createSolanaRpc(rpcUrl);
  const instructions = await paymentInstructions(payer, p);
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: p.version ?? 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer.signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return {
    wire: getBase64EncodedWireTransaction(signed),
    signature: getSignatureFromTransaction(signed) as string,
  };
}

/** Builds, signs and sends a payment over JSON-RPC, as a wallet does; returns its signature. */
export async function pay(rpcUrl: string, payer: Payer, p: Payment): Promise<string> {
  const { wire, signature } = await signPayment(rpcUrl, payer, p);
  const options = {
    encoding: 'base64',
    preflightCommitment: 'confirmed',
    skipPreflight: p.skipPreflight ?? false,
  } as const;
  await createSolanaRpc(rpcUrl).sendTransaction(wire, options).send();
  return signature;
}
