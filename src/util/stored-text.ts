// The stored JSON text behind each object the API server decoded from storage (without its resourceVersion, which
// the store keeps beside the value): what a worker-thread component is sent instead of the object, since copying a
// string to another thread costs a fraction of cloning the object graph (src/client/port-transport.ts).

const texts = new WeakMap<object, string>();

/** `obj` is `text` parsed, give or take metadata.resourceVersion; `obj` must be frozen (shared, never changed). */
export function rememberStoredText(obj: object, text: string): void {
  texts.set(obj, text);
}

/** The text `obj` was decoded from, when it was (read its resourceVersion from the object itself). */
export function storedTextOf(obj: object): string | undefined {
  return texts.get(obj);
}
