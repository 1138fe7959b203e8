import { getAddress, id as eventTopic, Interface, Signature, zeroPadValue } from 'ethers';
import type { LocalChain } from '../../scripts/local-chain';

const TOKEN = new Interface([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
]);
const BATCHER = new Interface([
  'function settle(address token, (address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)[] auths)',
]);
const AUTHORIZATION_USED = eventTopic('AuthorizationUsed(address,bytes32)');

/** A transferWithAuthorization as the chain shows it: the authorization and its signature. */
export type SignedAuthorization = {
  from: string;
  to: string;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: string;
  v: number;
  r: string;
  s: string;
};

/** What the chain tells anyone: each authorization of `wallet` that moved money, decoded from calldata. */
export async function authorizationsOnChain(chain: LocalChain, wallet: string): Promise<SignedAuthorization[]> {
  const logs = await chain.provider.getLogs({
    address: chain.usdcAddress,
    topics: [AUTHORIZATION_USED, zeroPadValue(wallet, 32)],
    fromBlock: 0,
  });
  const found: SignedAuthorization[] = [];
  for (const log of logs) {
    const tx = (await chain.provider.getTransaction(log.transactionHash))!;
    const single = TOKEN.parseTransaction({ data: tx.data });
    const auths = single ? [single.args] : BATCHER.parseTransaction({ data: tx.data })!.args[1];
    for (const a of auths)
      if (a.nonce === log.topics[2])
        found.push({
          ...(a.toObject() as SignedAuthorization),
          v: Number(a.v),
          from: getAddress(a.from),
          to: getAddress(a.to),
        });
  }
  return found;
}

/** The header a standard x402 v1 client sends for an authorization: rebuilt, nothing secret needed. */
export function rebuildHeader(a: SignedAuthorization): string {
  const signature = Signature.from({ r: a.r, s: a.s, v: a.v }).serialized;
  const authorization = {
    from: a.from,
    to: a.to,
    value: a.value.toString(),
    validAfter: a.validAfter.toString(),
    validBefore: a.validBefore.toString(),
    nonce: a.nonce,
  };
  const body = { x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: { signature, authorization } };
  return Buffer.from(JSON.stringify(body)).toString('base64');
}
