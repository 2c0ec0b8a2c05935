// PowerShell 7's `ForEach-Object -Parallel`: each input runs its block in a runspace of its own, seeing `$_` and
// the caller's variables only through `$using:`. The emulation runs the runspaces one after another, so output
// comes in input order (real pwsh streams each runspace's output as it finishes, in no guaranteed order).

import type { CmdletCall } from './cmdlet-api.js';
import { Ps } from './interp.js';
import { FlowSignal, PsExit, PsTerminating } from './signals.js';
import { PsError, ScriptBlock } from './values.js';

export async function forEachParallel(c: CmdletCall, block: ScriptBlock): Promise<void> {
  const parent = c.ps;
  for (const item of c.bound.input ?? []) {
    // A fresh runspace: no caller variables or functions, `$using:name` reads the caller's value.
    const rs = new Ps(parent.ctx, parent.src, parent.registry);
    rs.edition = parent.edition;
    rs.usingFrom = parent;
    rs.errorStream = parent.errorStream;
    rs.scriptPath = parent.scriptPath;
    try {
      await rs.callBlock(block, [], undefined, c.out, false, item);
    } catch (e) {
      // A runspace's terminating error becomes a non-terminating error of ForEach-Object; the others go on.
      if (e instanceof PsTerminating) parent.writeError(e.error);
      else if (e instanceof PsError) parent.writeError(e);
      else if (!(e instanceof FlowSignal) && !(e instanceof PsExit)) throw e;
    }
    if (!rs.lastOk) parent.lastOk = false;
  }
}
