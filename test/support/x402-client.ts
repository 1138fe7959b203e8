import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';

/** An ethers wallet as the @x402/evm signer (address + signTypedData, without the EIP712Domain type viem adds). */
export function evmSigner(wallet: Wallet) {
  return {
    address: wallet.address as `0x${string}`,
    signTypedData: ({ domain, types, message }: { domain: any; types: any; message: any }) => {
      const { EIP712Domain: _unused, ...rest } = types;
      return wallet.signTypedData(domain, rest, message) as Promise<`0x${string}`>;
    },
  };
}

/** The reference x402 client (v2) paying with `wallet`; `setup` may hook it (e.g. add a payment identifier). */
export function referencePayingFetch(wallet: Wallet, setup?: (client: x402Client) => void): typeof fetch {
  const client = registerExactEvmScheme(new x402Client(), { signer: evmSigner(wallet) });
  setup?.(client);
  return wrapFetchWithPayment(fetch, client) as typeof fetch;
}

/** What paid executions left behind: execution payments, charges and executions. */
export async function executionCounts(
  ds: DataSource,
): Promise<{ payments: number; charges: number; executions: number }> {
  const [row] = await ds.query(
    `SELECT (SELECT count(*) FROM payments WHERE purpose = 'execution')::int AS payments,
            (SELECT count(*) FROM transactions)::int AS charges, (SELECT count(*) FROM executions)::int AS executions`,
  );
  return row;
}
