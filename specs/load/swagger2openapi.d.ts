/** Minimal types of `swagger2openapi` (the package ships none): only what toolsim calls. */
declare module "swagger2openapi" {
  namespace swagger2openapi {
    /** Options of `convertObj`; the converter writes its results back into this object. */
    interface ConvertOptions {
      /** Fix small errors in the source instead of failing. */
      patch?: boolean;
      /** Record unfixable problems as `x-s2o-warning` properties instead of failing. */
      warnOnly?: boolean;
      /** Allow shared objects (YAML anchors) in the source. */
      anchors?: boolean;
      /** Source text; when absent the converter serialises the input to YAML itself (slow). */
      text?: string;
      /** Resolve the converted document instead of the options object. */
      direct?: boolean;
      /** Resolve external references (toolsim bundles before converting, so never). */
      resolve?: boolean;
      /** The property name used for warnings in warnOnly mode (default `x-s2o-warning`). */
      warnProperty?: string;
    }
    /** What `convertObj` resolves with when `direct` is not set. */
    interface ConvertResult {
      openapi: Record<string, unknown>;
      /** How many defects were patched. */
      patches: number;
    }
    /** Converts a Swagger 2.0 object to OpenAPI 3.0. */
    function convertObj(swagger: object, options: ConvertOptions): Promise<ConvertResult>;
  }
  export = swagger2openapi;
}
