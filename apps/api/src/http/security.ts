import { applyDecorators } from '@nestjs/common';
import { ApiSecurity, DocumentBuilder } from '@nestjs/swagger';

/**
 * The credentials a route takes, as OpenAPI security schemes (every one a header), so Swagger UI's
 * "Authorize" fills them in for "Try it out". A signature pairs with its wallet: one requirement.
 */
const SCHEMES = {
  agentWallet: { name: 'X-Agent-Wallet', description: "The agent's registered wallet (0x address)" },
  agentSignature: {
    name: 'X-Agent-Signature',
    description:
      'Two forms, both accepted on every signed route; 5-minute window either side of server time. ' +
      '(1) The unbound form: agora-auth:<agent_id>:<unix_ms>:sig:<EIP-191 signature of ' +
      '"agora-auth:<agent_id>:<unix_ms>">; ' +
      'it authorizes reads and one change, and never a change once it was presented on a read. ' +
      '(2) The bound form: agora-auth:<agent_id>:<unix_ms>:<METHOD> <path>[:<body sha256>]:sig:<EIP-191 signature of ' +
      'everything before ":sig:">, where <METHOD> <path> is this request (e.g. "POST /api/v1/payments/withdraw", no ' +
      'query string) and the optional <body sha256> is the lowercase hex SHA-256 of the exact body bytes sent; it ' +
      'authorizes that request only. A change takes a signed message once (agent and timestamp).',
  },
  clientWallet: { name: 'X-Client-Wallet', description: 'The payer wallet (with X-Client-Signature)' },
  clientSignature: {
    name: 'X-Client-Signature',
    description:
      'agora-auth:<transaction_id>:<unix_ms>:sig:<EIP-191 signature by the payer> to file a dispute (single use); ' +
      "agora-auth:<wallet>:<unix_ms>:sig:<signature> for the payer's reads (its outputs, its executions, its " +
      "payments' request ids); 5-minute window",
  },
  adminKey: { name: 'X-Admin-Key', description: 'The operator key (ADMIN_API_KEY)' },
  x402Payment: { name: 'X-PAYMENT', description: 'An x402 v1 payment (base64 JSON), answering a 402' },
  x402PaymentSignature: { name: 'PAYMENT-SIGNATURE', description: 'An x402 v2 payment (base64 JSON), answering a 402' },
} as const;

export type SecurityScheme = keyof typeof SCHEMES;

/** Declares every scheme on the document (and the console's session cookie). */
export function withSecuritySchemes(builder: DocumentBuilder): DocumentBuilder {
  for (const [key, { name, description }] of Object.entries(SCHEMES))
    builder.addApiKey({ type: 'apiKey', in: 'header', name, description }, key);
  return builder.addApiKey(
    {
      type: 'apiKey',
      in: 'cookie',
      name: 'agora_session',
      description:
        'A console session (POST /api/v1/console/sessions): HTTP-only, SameSite=Strict; for reads only, never a change',
    },
    'consoleSession',
  );
}

/** A read that also takes the console session of the wallet (or the agent) it is for. */
export const ApiConsoleSession = () => ApiSecurity('consoleSession');

/** Signed by the agent's wallet (X-Agent-Wallet + X-Agent-Signature). */
export const ApiAgentSigned = () => ApiSecurity({ agentWallet: [], agentSignature: [] });

/** The operator key. */
export const ApiAdminKey = () => ApiSecurity('adminKey');

/** Paid with x402 (either header); `optional`: the route also answers without one. */
export function ApiPaid(optional = false): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiSecurity('x402Payment'),
    ApiSecurity('x402PaymentSignature'),
    ...(optional ? [ApiSecurity({})] : []),
  );
}

/**
 * A payer's read (the route also answers without it): X-Client-Wallet + X-Client-Signature over its wallet,
 * or its console session.
 */
export function ApiPayerRead(): MethodDecorator & ClassDecorator {
  return applyDecorators(ApiSecurity({ clientWallet: [], clientSignature: [] }), ApiConsoleSession(), ApiSecurity({}));
}

/** The payer's proof: its payment header, or X-Client-Wallet + X-Client-Signature. */
export function ApiPayerProof(): MethodDecorator & ClassDecorator {
  return applyDecorators(ApiPaid(), ApiSecurity({ clientWallet: [], clientSignature: [] }));
}
