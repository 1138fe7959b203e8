import type { FacilitatorConfig } from '@x402/core/http';
import { AppConfig } from '@app/config';

type AuthHeaders = NonNullable<FacilitatorConfig['createAuthHeaders']>;
type Path = 'verify' | 'settle' | 'supported';
const METHODS: Record<Path, string> = { verify: 'POST', settle: 'POST', supported: 'GET' };

/**
 * The headers each facilitator call carries: FACILITATOR_AUTH_HEADERS as given, and with a CDP API
 * key a fresh JWT per call (Coinbase's helper, bound to the method, host and path of that call on
 * FACILITATOR_URL). Undefined when there is nothing to send. The values are secrets: never logged.
 */
export function facilitatorAuthHeaders(config: AppConfig): AuthHeaders | undefined {
  const fixed = config.facilitatorAuthHeaders;
  const cdp =
    config.cdpApiKeyId && config.cdpApiKeySecret ? { id: config.cdpApiKeyId, secret: config.cdpApiKeySecret } : null;
  if (!cdp && Object.keys(fixed).length === 0) return undefined;
  const url = new URL(config.facilitatorUrl!);
  const base = url.pathname.replace(/\/+$/, '');
  const headersFor = async (path: Path): Promise<Record<string, string>> => {
    if (!cdp) return { ...fixed };
    // Loaded only when a CDP key is set: its JWT library is an ES module (Node loads it; not every tool does).
    const { createAuthHeader, createCorrelationHeader } = await import('@coinbase/x402');
    const authorization = await createAuthHeader(cdp.id, cdp.secret, METHODS[path], url.host, `${base}/${path}`);
    return { ...fixed, 'Correlation-Context': createCorrelationHeader(), Authorization: authorization };
  };
  return async () => {
    const [verify, settle, supported] = await Promise.all((['verify', 'settle', 'supported'] as const).map(headersFor));
    return { verify, settle, supported };
  };
}
