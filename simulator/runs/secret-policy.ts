import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import { securityParamNames } from "../../specs/catalog/security-requirements.js";
import { redactJson, type SecretPolicy } from "../../specs/redact-secrets.js";
import type { SimEvent } from "../core/events.js";

/**
 * What is secret in a run over some toolsets, besides the names that mean a secret: the parameter names their
 * security schemes declare (an API key in `X-Partner-Key`), and the credentials their toolsets accept.
 */
export function secretPolicyOf(toolsets: readonly Pick<EpisodeToolset, "catalog" | "auth">[]): SecretPolicy {
  const names = new Set<string>();
  const known = new Set<string>();
  for (const t of toolsets) {
    for (const n of securityParamNames(t.catalog)) names.add(n);
    if (t.auth?.name) names.add(t.auth.name.toLowerCase());
    for (const c of t.auth?.credentials ?? []) if (c.trim() !== "") known.add(c);
    // Keys the harness supplies in arguments of their own (ToolAlpaca's `Authentication`): names and values.
    for (const [name, value] of Object.entries(t.auth?.keys ?? {})) {
      names.add(name.toLowerCase());
      if (value.trim() !== "") known.add(value);
    }
  }
  return { names, known: [...known] };
}

/** An episode's events as the journal holds them: secrets redacted (the same objects when there is none). */
export function redactEvents(events: readonly SimEvent[], policy: SecretPolicy): readonly SimEvent[] {
  const { texts, redacted } = redactJson(events, policy);
  return redacted ? texts.map((t) => JSON.parse(t) as SimEvent) : events;
}
