import { Wallet } from 'ethers';
import { formatSignInMessage } from '@app/auth';
import { ApiHarness } from './api-harness';

/**
 * Signs `wallet` in to the console through the API (an EIP-4361 message for this deployment, its
 * nonce, the wallet's signature) and answers the session's `cookie` header value. `agentId`: a
 * session as that agent; without it, as the paying wallet.
 */
export async function consoleSession(api: ApiHarness, wallet: Wallet, agentId?: string): Promise<string> {
  const origin = new URL(api.config.publicBaseUrl);
  const { nonce } = (await api.request('POST', '/api/v1/console/nonce')).body.data;
  const now = Date.now();
  const message = formatSignInMessage({
    domain: origin.host,
    address: wallet.address,
    uri: origin.origin,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: new Date(now),
    expirationTime: new Date(now + 600_000),
    resources: [agentId ? `agora:agent:${agentId}` : 'agora:wallet'],
  });
  const res = await api.request('POST', '/api/v1/console/sessions', {
    body: { message, signature: await wallet.signMessage(message) },
    headers: { origin: origin.origin },
  });
  if (res.status !== 201) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.headers.get('set-cookie')!.split(';')[0];
}
