// Structured, levelled logging shared by every component; quiet by default in tests.

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const ORDER: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
  /** A logger that prefixes every line with a component name. */
  child(component: string): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  component?: string;
  /** Where lines go; stderr by default. */
  write?: (line: string) => void;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const level = opts.level ?? ((process.env.WINKUBE_LOG as LogLevel | undefined) ?? 'info');
  const write = opts.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const make = (component: string | undefined): Logger => {
    const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      if (ORDER[lvl] > ORDER[level]) return;
      const ts = new Date().toISOString().slice(11, 23);
      let line = `${ts} ${lvl.toUpperCase().padEnd(5)} ${component ? `[${component}] ` : ''}${msg}`;
      if (fields) for (const [k, v] of Object.entries(fields)) line += ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
      write(line);
    };
    return {
      error: (m, f) => emit('error', m, f),
      warn: (m, f) => emit('warn', m, f),
      info: (m, f) => emit('info', m, f),
      debug: (m, f) => emit('debug', m, f),
      child: (c) => make(component ? `${component}/${c}` : c),
    };
  };
  return make(opts.component);
}

/** Discards everything: the default for unit and integration tests. */
export const silentLogger: Logger = createLogger({ level: 'error', write: () => {} });
