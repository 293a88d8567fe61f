import { describe, expect, it } from "vitest";
import { isSecretName, plainPlaceholders, redactJson, redactRecord } from "../../specs/redact-secrets.js";

describe("isSecretName: names that mean a secret, in every spelling", () => {
  it("knows secret names in camelCase, snake_case and kebab-case", () => {
    const secret = [
      "webhookToken", "client_secret", "x-api-key", "X-API-KEY", "apiKey", "api_key", "apikey", "password", "newPassword", "Authorization",
      "Proxy-Authorization", "refreshToken", "access_token", "idToken", "secretKey", "awsSecretAccessKey", "Ocp-Apim-Subscription-Key",
      "webhook-secret", "CLIENT_SECRET", "token", "tokenValue", "pinCode", "cookie", "Set-Cookie", "credentials",
    ];
    expect(secret.filter((n) => !isSecretName(n))).toEqual([]);
  });

  it("leaves names that describe, count or page (tokenType, maxTokens, pageToken, apiKeyName, accessKeyId)", () => {
    const plain = ["tokenType", "token_type", "tokenUrl", "maxTokens", "promptTokens", "apiKeyName", "apiKeyHeader", "passwordLength", "passwordSet", "secretName", "pageToken", "nextPageToken", "continuation_token", "key", "sortKey", "idempotencyKey", "Idempotency-Key", "accessKeyId", "monkey", "keyboard", "pinColor"];
    expect(plain.filter((n) => isSecretName(n))).toEqual([]);
  });

  it("takes the names a security scheme declares (any spelling of case)", () => {
    expect(isSecretName("X-Gravitee-Ident")).toBe(false);
    expect(isSecretName("X-Gravitee-Ident", new Set(["x-gravitee-ident"]))).toBe(true);
  });
});

describe("redactJson: an episode written without its secrets", () => {
  const events = [
    { type: "user.instruction", text: "Register https://h.example.com with token whsec_live_0123456789abcdef and secret cs_9876543210fedcba." },
    { type: "tool.call", call: { arguments: { url: "https://h.example.com", webhookToken: "whsec_live_0123456789abcdef", client_secret: "cs_9876543210fedcba" } } },
    { type: "tool.result", result: { body: { webhookToken: "whsec_live_0123456789abcdef", tokenType: "Bearer", headers: { "X-Gravitee-Ident": "pk_partner_0001" } } } },
    { type: "assistant.thought", text: 'Matches: "token whsec_live_0123456' },
    { type: "assistant.final", text: "Done. Authorization: Bearer abcdef0123456789 was used." },
  ];

  it("numbers the distinct secrets where they first appear under a secret name and blanks them everywhere", () => {
    const { texts, redacted } = redactJson(events, { names: new Set(["x-gravitee-ident"]) });
    expect(redacted).toBe(true);
    const out = texts.map((t) => JSON.parse(t) as Record<string, any>);
    expect(out[1]?.call.arguments).toEqual({ url: "https://h.example.com", webhookToken: "[redacted-1]", client_secret: "[redacted-2]" });
    expect(out[0]?.text).toBe("Register https://h.example.com with token [redacted-1] and secret [redacted-2].");
    expect(out[2]?.result.body).toEqual({ webhookToken: "[redacted-1]", tokenType: "Bearer", headers: { "X-Gravitee-Ident": "[redacted-3]" } });
    // A text that cut the secret short does not keep its start either.
    expect(out[3]?.text).toBe('Matches: "token [redacted-1]');
    expect(texts.join("\n")).not.toMatch(/whsec_live|cs_98765|pk_partner/);
  });

  it("is stable: redacting what it wrote changes nothing, and known credentials are blanked too", () => {
    const first = redactJson(events, { names: new Set(["x-gravitee-ident"]), known: ["abcdef0123456789"] }).texts;
    expect(first.join("\n")).not.toContain("abcdef0123456789");
    const again = redactJson(first.map((t) => JSON.parse(t) as unknown), { names: new Set(["x-gravitee-ident"]) });
    expect(again.texts).toEqual(first);
  });

  it("is the plain serialization when there is nothing secret", () => {
    const clean = [{ type: "user.instruction", text: "Find books by Tolkien." }, { type: "tool.call", call: { arguments: { author: "Tolkien", maxTokens: 5, pageToken: "p2" } } }];
    expect(redactJson(clean)).toEqual({ texts: clean.map((e) => JSON.stringify(e)), redacted: false });
  });

  it("exports use the plain placeholder; numbered ones compare as the same placeholder", () => {
    expect(redactRecord({ password: "hunter-22-secret", note: "pw hunter-22-secret" }).value).toEqual({ password: "[redacted]", note: "pw [redacted]" });
    expect(plainPlaceholders("a [redacted-3] b [redacted]")).toBe("a [redacted] b [redacted]");
  });
});

describe("secrets of any length", () => {
  it("redacts a 100,000-character secret and finds its start where a text cut it, in linear time (no regular expression is built from it)", () => {
    const pin = "A".repeat(6000);
    const long = "k9".repeat(50_000);
    const { value } = redactRecord({ pin, note: `pin ${pin.slice(0, 4000)}!`, apiKey: long, echo: `key=${long}` });
    expect(value).toEqual({ pin: "[redacted]", note: "pin [redacted]!", apiKey: "[redacted]", echo: "key=[redacted]" });
  });

  it("blanks a secret only where it stands as a whole token, down to half its length", () => {
    const secret = "sk-live-0123456789abcdef";
    const { value } = redactRecord({ token: secret, a: `x${secret}`, b: `${secret.slice(0, 12)}.`, c: `${secret.slice(0, 11)}9`, d: secret.slice(0, 10) });
    expect(value).toEqual({ token: "[redacted]", a: `x${secret}`, b: "[redacted].", c: `${secret.slice(0, 11)}9`, d: secret.slice(0, 10) });
  });
});
