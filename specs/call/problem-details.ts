/** One validation error, located like Prism's: `["query", "days"]`, `["body", "items", "0", "name"]`. */
export interface ValidationIssue {
  location: string[];
  /** The failing keyword or a toolsim code: `required`, `type`, `enum`, `format`, `additionalProperties`, `unknown-tool`... */
  code: string;
  message: string;
  severity: "Error" | "Warning";
}

/** An RFC 7807 problem details body in the shape Prism returns, so users recognise it. */
export interface ProblemDetails {
  type: string;
  status: number;
  title: string;
  detail: string;
  validation?: ValidationIssue[];
  /** For unknown tools: the closest tool names. */
  suggestions?: string[];
}
