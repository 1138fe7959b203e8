import { INestApplication, RequestMethod } from '@nestjs/common';
import type { RouteInfo } from '@nestjs/common/interfaces';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { AppModule } from './app.module';
import { documentIpRateLimits } from './http/ip-rate-limit';
import { withSecuritySchemes } from './http/security';

/** Every route is served under this prefix (but the ones below); the OpenAPI paths include it. */
export const API_PREFIX = 'api/v1';

/** Routes at the paths others define (the x402 discovery API, the manifests), outside API_PREFIX. */
export const UNPREFIXED_ROUTES: RouteInfo[] = [
  { path: 'x402/discovery/resources', method: RequestMethod.GET },
  { path: 'x402/discovery/search', method: RequestMethod.GET },
  { path: '.well-known/x402', method: RequestMethod.GET },
  { path: '.well-known/x402.json', method: RequestMethod.GET },
  { path: '.well-known/agent-card.json', method: RequestMethod.GET },
  { path: 'llms.txt', method: RequestMethod.GET },
  { path: '.well-known/did.json', method: RequestMethod.GET },
];

/** Serves the routes under API_PREFIX, but UNPREFIXED_ROUTES. */
export function applyGlobalPrefix(app: INestApplication): void {
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED_ROUTES });
}

/**
 * The contract's version: every change to what a client may send or receive bumps it, with a decision in
 * docs/decisions.md and a CHANGELOG.md entry; a form the contract allowed keeps working meanwhile.
 */
export const API_VERSION = '1.2.0';

const API_DESCRIPTION = [
  'Agent marketplace and execution service. Every response is an envelope: {success, data} or',
  '{success:false, error:{code,message,details,requestId}}; requestId is also the X-Request-ID header.',
  '',
  '## Wallet signatures',
  "Routes an agent's owner calls carry X-Agent-Wallet (the agent's registered wallet) and X-Agent-Signature.",
  'Two messages are accepted on every such route, side by side; each is signed as an EIP-191 personal message',
  "by the agent's wallet, with a Unix-millisecond timestamp within 5 minutes of the server's clock:",
  '',
  '| Form | X-Agent-Signature | Authorizes |',
  '|---|---|---|',
  "| unbound (the contract's) | `agora-auth:<agent_id>:<unix_ms>:sig:<signature>` | reads; and one change, " +
    'unless the same message was already presented on a read |',
  '| bound | `agora-auth:<agent_id>:<unix_ms>:<METHOD> <path>[:<body sha256>]:sig:<signature>` | that request ' +
    'only: its method, its path without the query, and (when given) the SHA-256 hex of its exact body bytes |',
  '',
  'The signature is over everything before `:sig:`. A message is used for a change once (agent and timestamp).',
  'Missing or malformed headers, a stale timestamp or a used message: 401 UNAUTHORIZED. Another wallet, another',
  'agent, another request or body: 403 FORBIDDEN. The SDK, CLI and console send the bound form.',
  '',
  '## Versioning',
  'Everything lives under /api/v1. info.version names the contract; a change to it comes with a CHANGELOG.md',
  'entry, and a form the contract allowed keeps working through a deprecation period.',
].join('\n');

/** The OpenAPI document of the routes of `app` (served at /api/docs, committed as docs/openapi.json). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  return documentIpRateLimits(
    SwaggerModule.createDocument(
      app,
      withSecuritySchemes(
        new DocumentBuilder().setTitle('agora').setDescription(API_DESCRIPTION).setVersion(API_VERSION),
      ).build(),
    ),
  );
}

/**
 * The document without a server or connections: in preview mode Nest builds the module graph
 * but creates no provider, so nothing connects to Postgres or Redis.
 */
export async function generateOpenApiDocument(config: AppConfig): Promise<OpenAPIObject> {
  const app = await NestFactory.create(AppModule.register(config), {
    preview: true,
    logger: false,
    bodyParser: false,
    abortOnError: false,
  });
  try {
    applyGlobalPrefix(app);
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/** Stable text for the committed file: keys sorted at every level (arrays keep their order), two-space indent, trailing newline. */
export function serializeOpenApiDocument(document: OpenAPIObject): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  };
  return `${JSON.stringify(sorted(document), null, 2)}\n`;
}
