// Turns a validator's errors into one line naming the offending field, e.g.
// "params.line must be integer", "requestId is required", "result.matches[0].line must be >= 0".

/** The fields of an ajv error this module reads. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** "/matches/0/line" under root "result" → "result.matches[0].line". */
export function fieldPath(root: string, instancePath: string): string {
  let out = root;
  for (const raw of instancePath.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

const isUnion = (e: SchemaError) => e.keyword === 'anyOf' || e.keyword === 'oneOf';

function branchesOf(summary: SchemaError, all: readonly SchemaError[]): SchemaError[] {
  const p = summary.instancePath;
  return all.filter((b) => b !== summary && (b.instancePath === p || b.instancePath.startsWith(`${p}/`)));
}

const isTypeMiss = (b: SchemaError, summary: SchemaError) =>
  b.keyword === 'type' && b.instancePath === summary.instancePath;

/**
 * The error worth reporting. ajv lists a union's branch errors before its summary; when exactly one
 * branch failed on something other than its type, the value had that branch's type, so that
 * branch's error is the precise one (e.g. an empty string where string | string[] is expected).
 */
function decisiveError(errors: readonly SchemaError[]): SchemaError {
  const summary = errors.find(isUnion);
  if (!summary) return errors[0]!;
  const others = branchesOf(summary, errors).filter((b) => !isTypeMiss(b, summary) && !isUnion(b));
  return others.length === 1 ? others[0]! : summary;
}

function describeOne(e: SchemaError, all: readonly SchemaError[]): string {
  switch (e.keyword) {
    case 'enum':
      return `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(e.params.allowedValue)}`;
    case 'anyOf':
    case 'oneOf': {
      const branches = branchesOf(e, all);
      if (branches.length > 0 && branches.every((b) => isTypeMiss(b, e))) {
        return `must be ${[...new Set(branches.map((b) => String(b.params.type)))].join(' or ')}`;
      }
      return e.message ?? `must match a schema in ${e.keyword}`;
    }
    default:
      return e.message ?? `fails ${e.keyword}`;
  }
}

/**
 * One-line description of a validation failure under `root` ("params", "result", or "" for a whole
 * message, whose top-level fields are then named bare: "requestId is required").
 */
export function describeValidationError(errors: readonly SchemaError[] | null | undefined, root: string): string {
  if (!errors || errors.length === 0) return `${root || 'message'} is invalid`;
  const e = decisiveError(errors);
  const path = fieldPath(root, e.instancePath);
  const child = (name: unknown) => (path === '' ? String(name) : `${path}.${String(name)}`);
  if (e.keyword === 'required') return `${child(e.params.missingProperty)} is required`;
  if (isUnion(e)) {
    // "At least one of" rules: every branch only missed a property.
    const branches = branchesOf(e, errors);
    if (branches.length > 0 && branches.every((b) => b.keyword === 'required' && b.instancePath === e.instancePath)) {
      return `${branches.map((b) => child(b.params.missingProperty)).join(' or ')} is required`;
    }
  }
  if (e.keyword === 'additionalProperties') return `${child(e.params.additionalProperty)} is not allowed`;
  return `${path || root || 'message'} ${describeOne(e, errors)}`;
}
