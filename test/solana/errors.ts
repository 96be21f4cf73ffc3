import type { FailedTransactionMetadata } from 'litesvm';

/** A JSON-RPC error the server answers with (code, message and data as a real node sends them). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const invalidParams = (message: string) => new RpcError(-32602, message);

// litesvm's error enums are `const enum`s, absent at run time: their names in declaration order.
const TX_ERRORS =
  'AccountInUse AccountLoadedTwice AccountNotFound ProgramAccountNotFound InsufficientFundsForFee InvalidAccountForFee AlreadyProcessed BlockhashNotFound CallChainTooDeep MissingSignatureForFee InvalidAccountIndex SignatureFailure InvalidProgramForExecution SanitizeFailure ClusterMaintenance AccountBorrowOutstanding WouldExceedMaxBlockCostLimit UnsupportedVersion InvalidWritableAccount WouldExceedMaxAccountCostLimit WouldExceedAccountDataBlockLimit TooManyAccountLocks AddressLookupTableNotFound InvalidAddressLookupTableOwner InvalidAddressLookupTableData InvalidAddressLookupTableIndex InvalidRentPayingAccount WouldExceedMaxVoteCostLimit WouldExceedAccountDataTotalLimit MaxLoadedAccountsDataSizeExceeded ResanitizationNeeded InvalidLoadedAccountsDataSizeLimit UnbalancedTransaction ProgramCacheHitMaxLimit CommitCancelled'.split(
    ' ',
  );
const IX_ERRORS =
  'GenericError InvalidArgument InvalidInstructionData InvalidAccountData AccountDataTooSmall InsufficientFunds IncorrectProgramId MissingRequiredSignature AccountAlreadyInitialized UninitializedAccount UnbalancedInstruction ModifiedProgramId ExternalAccountLamportSpend ExternalAccountDataModified ReadonlyLamportChange ReadonlyDataModified DuplicateAccountIndex ExecutableModified RentEpochModified NotEnoughAccountKeys AccountDataSizeChanged AccountNotExecutable AccountBorrowFailed AccountBorrowOutstanding DuplicateAccountOutOfSync InvalidError ExecutableDataModified ExecutableLamportChange ExecutableAccountNotRentExempt UnsupportedProgramId CallDepth MissingAccount ReentrancyNotAllowed MaxSeedLengthExceeded InvalidSeeds InvalidRealloc ComputationalBudgetExceeded PrivilegeEscalation ProgramEnvironmentSetupFailure ProgramFailedToComplete ProgramFailedToCompile Immutable IncorrectAuthority AccountNotRentExempt InvalidAccountOwner ArithmeticOverflow UnsupportedSysvar IllegalOwner MaxAccountsDataAllocationsExceeded MaxAccountsExceeded MaxInstructionTraceLengthExceeded BuiltinProgramsMustConsumeComputeUnits BorshIoError'.split(
    ' ',
  );

type LiteErr = ReturnType<FailedTransactionMetadata['err']>;

/** A transaction error as the RPC's `err` field spells it: `"BlockhashNotFound"`, `{"InstructionError":[0,{"Custom":1}]}`. */
export function rpcTransactionError(err: LiteErr): unknown {
  if (typeof err === 'number') return TX_ERRORS[err] ?? `TransactionError${err}`;
  if ('accountIndex' in err) {
    const name = err.constructor.name.replace(/^TransactionError/, '');
    return { [name]: { account_index: err.accountIndex } };
  }
  if (!('err' in err)) return { DuplicateInstruction: err.index };
  const ix = err.err();
  if (typeof ix === 'number') return { InstructionError: [err.index, IX_ERRORS[ix] ?? 'GenericError'] };
  if ('code' in ix) return { InstructionError: [err.index, { Custom: ix.code }] };
  return { InstructionError: [err.index, { BorshIoError: ix.msg }] };
}

/**
 * Whether a failed transaction still lands (in a block, with its fee charged): an instruction that
 * fails does; a transaction that cannot even be loaded (bad signature, unknown blockhash, no fee
 * payer funds) never reaches a block.
 */
export function landsDespite(err: LiteErr): boolean {
  return typeof err !== 'number';
}

/** The human text a node puts after "Transaction simulation failed: ". */
export function describeTransactionError(err: unknown): string {
  if (err === 'BlockhashNotFound') return 'Blockhash not found';
  if (err === 'AlreadyProcessed') return 'This transaction has already been processed';
  if (typeof err === 'string') return err;
  const ix = (err as { InstructionError?: [number, unknown] }).InstructionError;
  if (!ix) return JSON.stringify(err);
  const [index, cause] = ix;
  const custom = (cause as { Custom?: number }).Custom;
  const what =
    custom === undefined ? JSON.stringify(cause) : `custom program error: 0x${custom.toString(16)}`;
  return `Error processing Instruction ${index}: ${what}`;
}
