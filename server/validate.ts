import { z } from 'zod';
import { validationFailed } from './errors';

// zod's own messages (wrong type, unknown option, too long…) in French too, beside the contracts' own.
z.config(z.locales.fr());

/** Parses `value` with a contract schema, or throws a 422 naming each faulty field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || '_';
    errors[field] ??= issue.message;
  }
  throw validationFailed(errors);
}
