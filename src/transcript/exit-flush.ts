/**
 * Last-chance writing at process exit. `process.on("exit")` handlers must be synchronous, so every open
 * file store registers here and exposes a synchronous flush. Signal handling belongs to the CLI: it calls
 * `flushAllTranscriptsSync()` from its own SIGINT/SIGTERM handlers (installing a SIGINT handler here would
 * change how the whole program reacts to Ctrl-C).
 */

/** A store that can write what it still holds without awaiting anything. */
export interface SyncFlushable {
  flushSync(): void;
}

const openStores = new Set<SyncFlushable>();
let exitListenerInstalled = false;

/** Writes what every open store still has queued, synchronously; errors are swallowed (we are exiting). */
export function flushAllTranscriptsSync(): void {
  for (const store of openStores) {
    try {
      store.flushSync();
    } catch {
      // Nothing useful can be done with a write error during exit; the other stores still get their turn.
    }
  }
}

/** Installs (once) the `process.on("exit")` writer of everything still queued. Returns its remover. */
export function flushAllOnExit(): () => void {
  if (!exitListenerInstalled) {
    process.on("exit", flushAllTranscriptsSync);
    exitListenerInstalled = true;
  }
  return () => {
    process.off("exit", flushAllTranscriptsSync);
    exitListenerInstalled = false;
  };
}

/** Adds an open store to the exit flush. */
export function registerForExitFlush(store: SyncFlushable): void {
  openStores.add(store);
}

/** Removes a closed store from the exit flush. */
export function unregisterFromExitFlush(store: SyncFlushable): void {
  openStores.delete(store);
}
