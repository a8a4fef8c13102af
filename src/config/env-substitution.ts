/**
 * `${VAR}` and `${VAR:-default}` substitution in config values (SPEC §2). Substitution runs on the
 * parsed YAML scalars rather than on the raw text, so a variable can never inject YAML structure, a
 * reference inside a comment is inert, and error line numbers stay those of the file.
 */

const reference = /\$\$\{|\$\{([^}]*)\}/g;

/**
 * A reference as it appears in a config file's text, one line at most, or an escaped `$${`: what
 * the config parser masks before reading the YAML and the config cache keys its entries on.
 */
export const TEXT_REFERENCE = /\$\$\{|\$\{[^}\n]*\}/g;
const refBody = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** Why a substitution failed: the caller adds the location. */
export class SubstitutionError extends Error {
  override readonly name = 'SubstitutionError';
}

/**
 * Replaces every `${NAME}` in `text` with `env[NAME]`, and `${NAME:-fallback}` with the fallback
 * when NAME is unset or empty (as in POSIX shells). `$${` stands for a literal `${`.
 * @throws SubstitutionError when a variable without fallback is unset, or a reference is malformed.
 */
export function substituteEnv(text: string, env: Readonly<Record<string, string | undefined>>): string {
  if (!text.includes('${')) return text;
  return text.replace(reference, (match: string, body: string | undefined) => {
    if (match === '$${') return '${';
    const parts = refBody.exec(body ?? '');
    if (parts === null) throw new SubstitutionError(`malformed reference ${match}: expected \${NAME} or \${NAME:-default}`);
    const name = parts[1];
    const fallback = parts[2] as string | undefined;
    const value = env[name];
    if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
    if (value === undefined) throw new SubstitutionError(`environment variable ${name} is not set (write \${${name}:-default} to give a default)`);
    return value;
  });
}
