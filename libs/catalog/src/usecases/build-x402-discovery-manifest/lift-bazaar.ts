import type { DiscoveryResource } from '@x402/extensions/bazaar';
import type { DiscoveryInput, DiscoveryManifestResource, DiscoveryOutput } from '../../discovery-manifest.types';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (v: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((o, k) => (isRecord(o) ? o[k] : undefined), v);

/**
 * A discovery API resource as a well-known manifest item: the `extensions.bazaar` contract of its
 * 402 lifted to `input`/`output` the way the draft's reference (`liftDiscoveryContract` of
 * @x402/core's x402HTTPResourceServer) lifts it — the declared JSON Schemas preferred over the
 * examples — plus the output's schema; the extension keys a client must implement as `requires`.
 */
export function liftResource(r: DiscoveryResource): DiscoveryManifestResource {
  const bazaar = r.extensions?.bazaar;
  const info = at(bazaar, 'info', 'input');
  const schema = at(bazaar, 'schema', 'properties', 'input', 'properties');
  const input: DiscoveryInput = { method: 'POST' };
  const method = at(info, 'method');
  if (typeof method === 'string') input.method = method;
  const routeTemplate = at(bazaar, 'routeTemplate');
  if (typeof routeTemplate === 'string') input.routeTemplate = routeTemplate;
  const pathParams = at(schema, 'pathParams');
  if (isRecord(pathParams)) input.pathParams = pathParams;
  const bodyType = at(info, 'bodyType');
  if (typeof bodyType === 'string') input.bodyType = bodyType;
  const body = isRecord(at(schema, 'body')) ? at(schema, 'body') : at(info, 'body');
  if (isRecord(body)) input.body = body;

  let output: DiscoveryOutput | undefined;
  const example = at(bazaar, 'info', 'output', 'example');
  if (example !== undefined) {
    const outSchema = at(bazaar, 'schema', 'properties', 'output', 'properties', 'example');
    output = {
      ...(r.mimeType ? { mimeType: r.mimeType } : {}),
      example,
      ...(isRecord(outSchema) && isRecord(outSchema.properties) ? { schema: outSchema } : {}),
    };
  }
  // What a client must implement: not bazaar (a description), nor an extension it may leave out (`info.required: false`).
  const requires = Object.entries(r.extensions ?? {})
    .filter(([k, ext]) => k !== 'bazaar' && (ext as { info?: { required?: unknown } })?.info?.required !== false)
    .map(([k]) => k);
  return {
    resource: {
      url: r.resource,
      ...(r.description ? { description: r.description } : {}),
      ...(r.mimeType ? { mimeType: r.mimeType } : {}),
      ...(r.serviceName ? { serviceName: r.serviceName } : {}),
      ...(r.tags ? { tags: r.tags } : {}),
    },
    type: r.type,
    accepts: r.accepts as unknown as Rec[],
    input,
    ...(output ? { output } : {}),
    ...(requires.length ? { requires } : {}),
  };
}
