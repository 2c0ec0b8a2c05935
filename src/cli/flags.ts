// A small, strict flag parser shared by every command: --name value, --name=value, booleans, and clear errors.

export interface FlagSpec {
  name: string;
  type: 'string' | 'number' | 'boolean';
  help: string;
  default?: string | number | boolean;
  placeholder?: string;
}

export class UsageError extends Error {}

export function parseFlags(argv: string[], specs: FlagSpec[]): { flags: Record<string, string | number | boolean | undefined>; rest: string[] } {
  const flags: Record<string, string | number | boolean | undefined> = {};
  for (const s of specs) flags[s.name] = s.default;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      rest.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = specs.find((s) => s.name === name);
    if (!spec) throw new UsageError(`unknown flag: --${name}`);
    let value: string | undefined = eq < 0 ? undefined : arg.slice(eq + 1);
    if (spec.type === 'boolean') {
      flags[name] = value === undefined ? true : value === 'true';
      continue;
    }
    if (value === undefined) {
      value = argv[++i];
      if (value === undefined) throw new UsageError(`flag needs an argument: --${name}`);
    }
    if (spec.type === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new UsageError(`invalid value "${value}" for --${name}: not a number`);
      flags[name] = n;
    } else {
      flags[name] = value;
    }
  }
  return { flags, rest };
}

export function flagHelp(specs: FlagSpec[]): string {
  const rows = specs.map((s) => {
    const left = `  --${s.name}${s.type === 'boolean' ? '' : ` ${s.placeholder ?? s.type.toUpperCase()}`}`;
    const def = s.default !== undefined && s.default !== false ? ` (default ${JSON.stringify(s.default)})` : '';
    return `${left.padEnd(30)} ${s.help}${def}`;
  });
  return rows.join('\n');
}
