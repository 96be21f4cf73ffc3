import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';

/**
 * Solana addresses: the 32 bytes of a public key, written in base58 (Bitcoin's alphabet, no
 * checksum), 32 to 44 characters. A wallet's address is an ed25519 public key, so it is a point on
 * the curve; a program-derived address (PDA) is by construction off the curve, and nobody can sign
 * for it with a wallet. Token accounts and mints are just accounts: any 32 bytes.
 */
const SHAPE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** The 32 bytes of a base58 address; undefined when it is not one (bad character, wrong length). */
export function solanaKeyBytes(text: string): Uint8Array | undefined {
  if (!SHAPE.test(text)) return undefined;
  try {
    const bytes = base58.decode(text);
    return bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** Any 32-byte account written in base58: a mint, a token account, a reference, a wallet. */
export function isSolanaAddress(text: string): boolean {
  return solanaKeyBytes(text) !== undefined;
}

export const solanaAddress = (bytes: Uint8Array): string => base58.encode(bytes);

/**
 * Whether 32 bytes decode to a point of ed25519, as Solana's own `is_on_curve` decides (curve25519-dalek's
 * decompression, which takes the non-canonical encodings ZIP 215 allows: hence `zip215`).
 */
export function isOnCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes, true);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a merchant's wallet address is refused, or undefined when it is one: base58, 32 bytes, on the
 * curve. An off-curve key is a PDA (a program's account, a token account, a multisig vault): money
 * sent to its associated token account could only move by that program's rules, and a payer's wallet
 * refuses to create a token account for an off-curve owner, so the payment could not be made at all.
 */
export function walletAddressProblem(text: string): { rule: string; message: string } | undefined {
  const bytes = solanaKeyBytes(text);
  if (!bytes) {
    return {
      rule: 'format',
      message:
        'solana_address must be a Solana wallet address: 32 to 44 base58 characters (no 0, O, I or l) that decode to 32 bytes',
    };
  }
  if (!isOnCurve(bytes)) {
    return {
      rule: 'off_curve',
      message:
        "solana_address must be a wallet's own address (an ed25519 public key on the curve); this one is off the curve: a program-derived address or token account, whose token accounts a wallet cannot pay into. Give the address your wallet shows as yours",
    };
  }
  return undefined;
}

const PDA_MARKER = new TextEncoder().encode('ProgramDerivedAddress');

/**
 * Solana's `find_program_address`: the first bump from 255 down whose hash is off the curve. Used for
 * associated token accounts (ATA of owner × mint), which is where a Solana Pay transfer lands.
 */
export function findProgramAddress(seeds: readonly Uint8Array[], programId: Uint8Array): Uint8Array {
  for (let bump = 255; bump >= 0; bump--) {
    const hash = sha256(concat([...seeds, Uint8Array.of(bump), programId, PDA_MARKER]));
    if (!isOnCurve(hash)) return hash;
  }
  throw new Error('no viable bump seed');
}

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

/** The associated token account of `owner` for `mint` (SPL Token program), in base58. */
export function associatedTokenAccount(owner: string, mint: string): string {
  const seeds = [base58.decode(owner), base58.decode(TOKEN_PROGRAM), base58.decode(mint)];
  return base58.encode(findProgramAddress(seeds, base58.decode(ASSOCIATED_TOKEN_PROGRAM)));
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
