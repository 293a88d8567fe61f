// The redaction of exports is the redaction of everything toolsim writes: see specs/redact-secrets.ts.
export { isSecretName as isSecretKey, REDACTED, redactRecord, redactSchemaSecrets, scrubStrings, secretValues } from "../../specs/redact-secrets.js";
