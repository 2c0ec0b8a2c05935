// Registry: plugin name → factory, built explicitly (no import side effects); a second plugin with the same name is
// a programming error (framework/runtime/registry.go "a plugin named %v already exists").

import type { PluginFactory } from '../interfaces.js';

export class Registry {
  private readonly factories = new Map<string, PluginFactory>();

  constructor(entries: Iterable<readonly [string, PluginFactory]> = []) {
    for (const [name, f] of entries) this.register(name, f);
  }

  register(name: string, factory: PluginFactory): this {
    if (this.factories.has(name)) throw new Error(`a plugin named ${name} already exists`);
    this.factories.set(name, factory);
    return this;
  }

  get(name: string): PluginFactory | undefined {
    return this.factories.get(name);
  }

  has(name: string): boolean {
    return this.factories.has(name);
  }

  names(): string[] {
    return [...this.factories.keys()];
  }

  /** Adds every plugin of `other` (out-of-tree plugins), rejecting name clashes like register does. */
  merge(other: Registry): this {
    for (const name of other.names()) this.register(name, other.get(name)!);
    return this;
  }
}
