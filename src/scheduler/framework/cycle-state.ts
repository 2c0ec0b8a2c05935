// CycleState: per-attempt scratch space plugins share between their extension points (framework CycleState).

export class CycleState {
  private readonly data = new Map<string, unknown>();
  /** Plugins whose PreFilter / PreScore returned Skip, so their Filter / Score is not run this cycle. */
  readonly skipFilterPlugins = new Set<string>();
  readonly skipScorePlugins = new Set<string>();

  write(key: string, value: unknown): void {
    this.data.set(key, value);
  }

  /** Reads what an earlier extension point wrote; a missing key is a plugin bug, so it throws. */
  read<T>(key: string): T {
    if (!this.data.has(key)) throw new Error(`reading ${JSON.stringify(key)} from cycleState: not found`);
    return this.data.get(key) as T;
  }

  has(key: string): boolean {
    return this.data.has(key);
  }
}
