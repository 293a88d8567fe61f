/** HTTP methods that carry OpenAPI operations. */
export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

/** The operation behind a tool: enough to find it in the spec and to describe it on the wire. */
export interface OperationRef {
  operationId?: string;
  method: HttpMethod;
  /** The path template, e.g. `/pets/{petId}`. */
  path: string;
  /** JSON pointer to the operation object in the document. */
  pointer: string;
}

/** Where a parameter travels. */
export type ParameterLocation = "path" | "query" | "header" | "cookie";

/** How one tool argument maps to an OpenAPI parameter. */
export interface ParameterBinding {
  /** The argument name in the tool's schema (the parameter name unless two parameters share it). */
  arg: string;
  name: string;
  in: ParameterLocation;
  required: boolean;
  style: string;
  explode: boolean;
  /**
   * For an array parameter, the separator of its items when they travel as one string (`form` not
   * exploded and `simple`: `,`, `spaceDelimited`: space, `pipeDelimited`: `|`, Swagger 2.0
   * `collectionFormat: tsv`: tab); undefined for other parameters and styles.
   */
  delimiter?: string;
  description?: string;
  /** JSON pointer to the parameter's schema, if it has one. */
  schemaPointer?: string;
}

/** How the request body maps to tool arguments: its properties as top-level arguments, or one argument. */
export interface BodyBinding {
  mediaType: string;
  required: boolean;
  mode: "flat" | "wrapped";
  /** The argument holding the whole body (mode `wrapped`). */
  arg?: string;
  /** Body property name -> pointer of its schema (mode `flat`). */
  properties: Record<string, string>;
  /** Required body properties (mode `flat`). */
  requiredProperties: string[];
  /** JSON pointer to the body schema, if it has one. */
  schemaPointer?: string;
  description?: string;
}

/** An operation as a tool a model can call. */
export interface Tool {
  /** Stable, unique, model-safe name (`^[a-zA-Z0-9_-]{1,64}$`). */
  name: string;
  description: string;
  operation: OperationRef;
  parameters: ParameterBinding[];
  body?: BodyBinding;
  /** The argument names that are required. */
  required: string[];
  /** Declared response statuses (`200`, `404`, `default`, `2XX`...). */
  responses: string[];
  tags: string[];
  /** Names of security requirements (scheme names) that apply, empty when the operation is public. */
  security: string[][];
  deprecated: boolean;
}
