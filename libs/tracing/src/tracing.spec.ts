import { instrumentationNames, tracingRequested } from './tracing';

describe('tracing configuration (the OTEL_* variables)', () => {
  it('is off unless an exporter or an OTLP endpoint is named, and OTEL_SDK_DISABLED wins', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false); // docker-compose passes it empty when unset
    expect(
      tracingRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
    ).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it('loads http and undici by default, those OTEL_NODE_ENABLED_INSTRUMENTATIONS names instead, less the disabled ones', () => {
    expect(instrumentationNames({})).toEqual(['http', 'undici']);
    expect(instrumentationNames({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,express,pg,ioredis,undici' })).toEqual([
      'http',
      'express',
      'pg',
      'ioredis',
      'undici',
    ]);
    expect(
      instrumentationNames({
        OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,pg,ioredis,undici',
        OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg, ioredis',
      }),
    ).toEqual(['http', 'undici']);
    expect(instrumentationNames({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'undici' })).toEqual(['http']);
    expect(instrumentationNames({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'undici,http,unknown' })).toEqual([
      'http',
      'undici',
    ]);
    expect(
      instrumentationNames({
        OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,pg',
        OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg',
      }),
    ).toEqual(['http']);
  });
});
