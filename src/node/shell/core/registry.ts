// The explicit table of emulated programs, keyed by the `program` tag executables carry in the container's
// filesystem. Registering a name twice is a bug.

import type { Program } from './ctx.js';

export class ProgramRegistry {
  private readonly programs = new Map<string, Program>();

  register(name: string, program: Program): void {
    if (this.programs.has(name)) throw new Error(`program ${JSON.stringify(name)} is registered twice`);
    this.programs.set(name, program);
  }

  get(name: string): Program | undefined {
    return this.programs.get(name);
  }

  names(): string[] {
    return [...this.programs.keys()].sort();
  }
}

/** The programs every emulated container can run; filled by ../programs.ts. */
export const PROGRAMS = new ProgramRegistry();
