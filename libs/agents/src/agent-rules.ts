import { FieldError, ValidationException } from '@app/common';
import { SchemaBudget, schemaProblem } from '@app/json-schema';
import { OutboundUrlPolicy } from '@app/outbound';
import { CapabilityInput } from './agent.types';
import { AgentEndpoints, ChainSettings } from './entities/agent.entity';
import { VARIABLE_PRICING_MODELS } from './entities/agent-capability.entity';

/** Rules across fields that DTO decorators cannot express. Throws VALIDATION_ERROR listing each. */
export function assertCapabilityRules(capabilities: CapabilityInput[], field = 'capabilities'): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  // Schemas must pass the bounds and compile now, so a hostile or broken schema is caught at
  // registration and not at execute time; together they may compile only so much (unpaid work).
  const budget = new SchemaBudget();
  capabilities.forEach((c, i) => {
    const at = `${field}.${i}`;
    if (seen.has(c.id)) errors.push({ field: `${at}.id`, messages: [`duplicate capability id "${c.id}"`] });
    seen.add(c.id);
    for (const key of ['inputSchema', 'outputSchema'] as const) {
      if (c[key] !== undefined) {
        const e = schemaProblem(c[key], budget);
        if (e) errors.push({ field: `${at}.${key}`, messages: [`${key} ${e}`] });
      }
    }
    const variable = VARIABLE_PRICING_MODELS.includes(c.pricing.model);
    if (variable && c.pricing.maxPrice === undefined) {
      errors.push({
        field: `${at}.pricing.maxPrice`,
        messages: [`maxPrice is required for ${c.pricing.model} pricing`],
      });
    }
    if (!variable && c.pricing.maxPrice !== undefined) {
      errors.push({
        field: `${at}.pricing.maxPrice`,
        messages: ['maxPrice applies only to per-token, per-minute and dynamic pricing'],
      });
    } else if (c.pricing.maxPrice === 0n) {
      // basePrice is a unit price (per 1,000 tokens, per minute) or nominal (dynamic), so the cap
      // may be below it; it only has to allow some charge.
      errors.push({ field: `${at}.pricing.maxPrice`, messages: ['maxPrice must be greater than 0'] });
    }
  });
  if (errors.length > 0) throw new ValidationException(errors);
}

/** A URL's host name, lower-case (null: it does not parse). */
export function hostnameOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The endpoints pass the outbound policy, and a health URL is on the execution endpoint's host (any
 * port or path): the probe must speak for the agent, not for a page elsewhere that always answers.
 */
export async function assertEndpointRules(policy: OutboundUrlPolicy, endpoints: AgentEndpoints): Promise<void> {
  const errors = await policy.fieldErrors({
    'endpoints.execution': endpoints.execution,
    'endpoints.health': endpoints.health,
  });
  if (errors.length === 0 && endpoints.health && hostnameOf(endpoints.health) !== hostnameOf(endpoints.execution))
    errors.push({
      field: 'endpoints.health',
      messages: ['endpoints.health must be on the host of endpoints.execution'],
    });
  if (errors.length > 0) throw new ValidationException(errors);
}

export function assertChainSettingsRules(settings: Partial<ChainSettings>, agentId: string): void {
  const errors: FieldError[] = [];
  for (const key of ['chain_allowed_callers', 'chain_blocked_callers'] as const) {
    if (settings[key]?.includes(agentId)) {
      errors.push({ field: `chainSettings.${key}`, messages: [`${key} cannot contain the agent itself`] });
    }
  }
  if (errors.length > 0) throw new ValidationException(errors);
}
