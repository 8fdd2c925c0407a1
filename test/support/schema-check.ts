import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

interface DocOperation {
  operationId: string;
  'x-alias-of'?: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, DocOperation>>;
}

interface Checked {
  key: string;
  method: string;
  template: string;
  pattern: RegExp;
  alias: boolean;
  validate: ValidateFunction;
  example: unknown;
}

export interface Violation {
  operation: string;
  url: string;
  errors: string;
  body: unknown;
}

function templatePattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

/**
 * Checks real 200 answers against the schemas the OpenAPI document declares for them, and keeps
 * which operations were reached, so a suite can assert that every one of them was checked.
 */
export class SchemaCheck {
  private readonly operations: Checked[] = [];
  private readonly reached = new Set<string>();
  readonly violations: Violation[] = [];

  constructor(document: OpenApiDocument) {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    for (const [template, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        // A route that answers a file declares its media types instead (its schema: a string).
        const contents = operation.responses['200']?.content;
        const content = contents?.['application/json'] ?? Object.values(contents ?? {})[0];
        this.operations.push({
          key: `${method.toUpperCase()} ${template}`,
          method: method.toUpperCase(),
          template,
          pattern: templatePattern(template),
          alias: operation['x-alias-of'] !== undefined,
          validate: ajv.compile((content?.schema ?? {}) as object),
          example: content?.example,
        });
      }
    }
    // A literal path wins over a template that would also match it (`/v2/orders/list` before `/v2/orders/{id}`).
    this.operations.sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  }

  static async load(baseUrl: string, documentPath = '/openapi.json'): Promise<SchemaCheck> {
    const response = await fetch(`${baseUrl}${documentPath}`);
    return new SchemaCheck((await response.json()) as OpenApiDocument);
  }

  private find(method: string, url: string): Checked | undefined {
    const path = new URL(url, 'http://x').pathname;
    return this.operations.find((op) => op.method === method.toUpperCase() && op.pattern.test(path));
  }

  /** Checks one successful answer; an answer to a route the document does not list is a violation too. */
  check(method: string, url: string, body: unknown): void {
    const operation = this.find(method, url);
    if (operation === undefined) {
      this.violations.push({ operation: `${method} (undocumented)`, url, errors: 'no operation in the document', body });
      return;
    }
    this.reached.add(operation.key);
    if (!operation.validate(body)) {
      const errors = (operation.validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('; ');
      this.violations.push({ operation: operation.key, url, errors, body });
    }
  }

  /** Canonical operations (aliases share their schema) under `prefix` that no checked answer reached. */
  unreached(prefix: string): string[] {
    return this.operations.filter((op) => !op.alias && op.template.startsWith(prefix) && !this.reached.has(op.key)).map((op) => op.key);
  }

  /** Operations under `prefix` whose declared example does not satisfy their own schema, or that have none. */
  badExamples(prefix: string): string[] {
    return this.operations
      .filter((op) => !op.alias && op.template.startsWith(prefix))
      .filter((op) => op.example === undefined || !op.validate(op.example))
      .map((op) => `${op.key}${op.example === undefined ? ' (no example)' : `: ${JSON.stringify(op.validate.errors)}`}`);
  }
}
