import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { Clock, FieldError, SystemClock } from '@app/common';
import { AppConfig } from '@app/config';
import { blockedAddressReason, blockedHostnameReason } from './address-policy';

export interface OutboundPolicyOptions {
  allowHttp: boolean;
  allowPrivate: boolean;
}

export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export class OutboundUrlRejected extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`URL not allowed: ${reason}`);
  }
}

export const MAX_OUTBOUND_URL_LENGTH = 2048;
/** Registration-time lookups are feedback, not the control: bounded, shared and cached briefly. */
const LOOKUP_TIMEOUT_MS = 2_000;
const LOOKUP_CACHE_MS = 30_000;
const LOOKUP_CACHE_MAX = 1_000;

type Lookup = { addresses: string[] | null; expires: number };

/**
 * The static half of the outbound guard: scheme, credentials, host name and every address
 * the name resolves to. It gives quick feedback when a URL is registered; the connection-time
 * check of the address actually dialled is the real control and reuses blockedAddressReason.
 */
@Injectable()
export class OutboundUrlPolicy {
  private readonly options: OutboundPolicyOptions;
  private readonly inflight = new Map<string, Promise<string[] | null>>();
  private readonly cache = new Map<string, Lookup>();

  constructor(
    config: AppConfig,
    private readonly resolve: Resolver = systemResolver,
    private readonly clock: Clock = new SystemClock(),
  ) {
    this.options = { allowHttp: config.outboundAllowHttp, allowPrivate: config.outboundAllowPrivate };
  }

  /** Syntax and literal checks only; no DNS. Returns the reason, or null when acceptable. */
  staticReason(raw: string): string | null {
    if (typeof raw !== 'string' || raw.length === 0) return 'empty URL';
    if (raw.length > MAX_OUTBOUND_URL_LENGTH) return `longer than ${MAX_OUTBOUND_URL_LENGTH} characters`;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'not an absolute URL';
    }
    if (url.protocol !== 'https:' && !(this.options.allowHttp && url.protocol === 'http:')) {
      return this.options.allowHttp ? 'scheme must be http or https' : 'scheme must be https';
    }
    if (url.username || url.password) return 'credentials in URL are not allowed';
    if (!url.hostname) return 'missing host';
    if (this.options.allowPrivate) return null;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const reason = blockedAddressReason(host);
      return reason ? `address is ${reason}` : null;
    }
    return blockedHostnameReason(host);
  }

  /** Static checks, then every DNS answer. A name that does not resolve yet is accepted here. */
  async check(raw: string): Promise<void> {
    const reason = this.staticReason(raw);
    if (reason) throw new OutboundUrlRejected(raw, reason);
    if (this.options.allowPrivate) return;
    const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return;
    const addresses = await this.lookup(host.toLowerCase());
    for (const address of addresses ?? []) {
      const blocked = blockedAddressReason(address);
      if (blocked) throw new OutboundUrlRejected(raw, `host resolves to a ${blocked} address`);
    }
  }

  /**
   * Checks URLs given in a request: a field error (`<field> is not allowed: <reason>`) per
   * rejected URL, ready for a VALIDATION_ERROR. Empty when all are allowed.
   */
  async fieldErrors(urls: Record<string, string | undefined>): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    for (const [field, url] of Object.entries(urls)) {
      if (url === undefined) continue;
      try {
        await this.check(url);
      } catch (err) {
        if (!(err instanceof OutboundUrlRejected)) throw err;
        errors.push({ field, messages: [`${field} is not allowed: ${err.reason}`] });
      }
    }
    return errors;
  }

  /** Addresses of a name, or null when it does not resolve (in time). Concurrent lookups share one query. */
  private lookup(host: string): Promise<string[] | null> {
    const cached = this.cache.get(host);
    if (cached && cached.expires > this.clock.nowMs()) return Promise.resolve(cached.addresses);
    const pending = this.inflight.get(host);
    if (pending) return pending;
    const query = Promise.race([
      this.resolve(host).catch(() => null),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), LOOKUP_TIMEOUT_MS).unref()),
    ]).then((addresses) => {
      this.inflight.delete(host);
      if (this.cache.size >= LOOKUP_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(host, { addresses, expires: this.clock.nowMs() + LOOKUP_CACHE_MS });
      return addresses;
    });
    this.inflight.set(host, query);
    return query;
  }
}
