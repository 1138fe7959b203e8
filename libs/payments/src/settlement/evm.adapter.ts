import { Contract, id, JsonRpcProvider, keccak256, Signature, TransactionRequest, Wallet, zeroPadValue } from 'ethers';
import { DataSource } from 'typeorm';
import { AppException, sameWallet } from '@app/common';
import { AppConfig } from '@app/config';
import { VerifiedPayment } from '../x402/x402.types';
import { SettleRequest, SettlementAdapter, TransferRequest, TransferRevertedError } from './settlement.adapter';

/** The parts of USDC (FiatToken v2) we call; the project's TestUSDC has the same interface. */
const USDC_ABI = [
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
];

/** pg advisory lock key serialising every transaction the hot wallet sends, across processes. */
const HOT_WALLET_LOCK = 0x61676f7261; // "agora"
const RECEIPT_TIMEOUT_MS = 120_000;

/**
 * Settlement on an EVM chain with ethers. One hot wallet (RELAYER_PRIVATE_KEY) relays
 * `transferWithAuthorization` and, being the payTo address, pays withdrawals with `transfer`.
 * Every send takes a Postgres advisory lock, so the api and the worker never race for a nonce,
 * and the signed transaction is persisted before it is broadcast.
 */
export class EvmSettlementAdapter extends SettlementAdapter {
  readonly mode = 'evm' as const;
  private readonly provider: JsonRpcProvider;
  private readonly wallet: Wallet;
  private readonly token: Contract;

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {
    super();
    this.provider = new JsonRpcProvider(config.evmRpcUrl, config.evmChainId, { staticNetwork: true, cacheTimeout: -1 });
    this.wallet = new Wallet(config.relayerPrivateKey!, this.provider);
    if (!sameWallet(this.wallet.address, config.platformWallet)) {
      throw new Error('In evm mode PLATFORM_WALLET must be the address of RELAYER_PRIVATE_KEY: one hot wallet receives payments and pays withdrawals');
    }
    this.token = new Contract(config.usdcAddress!, USDC_ABI, this.wallet);
  }

  async preflight(p: VerifiedPayment): Promise<void> {
    if (p.chainId !== this.config.evmChainId) {
      throw new AppException('PAYMENT_INVALID', 'Payments on this network cannot be settled here', { reason: 'invalid_network' });
    }
    const [used, balance] = await Promise.all([this.token.authorizationState(p.payer, p.nonce) as Promise<boolean>, this.token.balanceOf(p.payer) as Promise<bigint>]);
    if (used) throw new AppException('PAYMENT_REPLAYED', 'This payment authorization has already been used on chain', { reason: 'duplicate_settlement' });
    if (balance < p.value) throw new AppException('PAYMENT_INVALID', 'The payer does not hold enough USDC', { reason: 'insufficient_funds' });
  }

  async settle(p: SettleRequest, persist: (txHash: string) => Promise<void>): Promise<{ txHash: string }> {
    const sig = Signature.from(p.signature);
    return this.send(
      () => this.token.transferWithAuthorization.populateTransaction(p.payer, p.payTo, p.value, p.validAfter, p.validBefore, p.nonce, sig.v, sig.r, sig.s),
      (_signed, hash) => persist(hash),
    );
  }

  async authorizationUsed(p: SettleRequest): Promise<boolean> {
    return this.token.authorizationState(p.payer, p.nonce) as Promise<boolean>;
  }

  async settlementOf(p: SettleRequest): Promise<string | null> {
    if (!(await this.authorizationUsed(p))) return null;
    const logs = await this.provider.getLogs({
      address: this.config.usdcAddress!,
      topics: [id('AuthorizationUsed(address,bytes32)'), zeroPadValue(p.payer.toLowerCase(), 32), p.nonce.toLowerCase()],
      fromBlock: 0,
      toBlock: 'latest',
    });
    return logs[0]?.transactionHash ?? null;
  }

  async transfer(req: TransferRequest, persist: (signedTx: string, txHash: string) => Promise<void>): Promise<{ txHash: string }> {
    if (req.signedTx) {
      // A transfer signed before a crash: send that one again, never a different one.
      const hash = keccak256(req.signedTx);
      await this.provider.broadcastTransaction(req.signedTx).catch((err: { code?: string; message?: string }) => {
        if (!/already known|nonce too low|NONCE_EXPIRED|already been used/i.test(`${err.code} ${err.message}`)) throw err;
      });
      return this.confirm(hash);
    }
    return this.send(() => this.token.transfer.populateTransaction(req.to, req.amount), persist);
  }

  /** Balance of the hot wallet, for reconciliation (I8) and operations. */
  async platformBalance(): Promise<bigint> {
    return this.token.balanceOf(this.wallet.address) as Promise<bigint>;
  }

  private async send(populate: () => Promise<TransactionRequest>, persist: (signedTx: string, txHash: string) => Promise<void>): Promise<{ txHash: string }> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    let hash: string;
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [HOT_WALLET_LOCK]);
      const nonce = await this.provider.getTransactionCount(this.wallet.address, 'pending');
      const tx = await this.wallet.populateTransaction({ ...(await populate()), nonce });
      const signed = await this.wallet.signTransaction(tx);
      hash = keccak256(signed);
      await persist(signed, hash);
      await this.provider.broadcastTransaction(signed);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [HOT_WALLET_LOCK]).catch(() => undefined);
      await runner.release();
    }
    return this.confirm(hash);
  }

  private async confirm(hash: string): Promise<{ txHash: string }> {
    const receipt = await this.provider.waitForTransaction(hash, 1, RECEIPT_TIMEOUT_MS);
    if (!receipt) throw new Error(`no receipt for ${hash} within ${RECEIPT_TIMEOUT_MS} ms`);
    if (receipt.status !== 1) throw new TransferRevertedError(hash);
    return { txHash: hash };
  }
}
