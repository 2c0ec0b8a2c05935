// What a container's process asks for, before the OS caps it: winkube.io/cpu and winkube.io/memory annotations over
// what its command line does (busy loops, stress) over the image catalogue's idle usage over an OS default.

import type { Container, Pod } from 'kubernetes-types/core/v1.js';
import { tryParseQuantity } from '../../api/quantity.js';
import { usageAnnotations } from '../behaviour.js';
import { imageConfig, lookupImage } from '../images/catalogue.js';
import { processArgv } from '../process/argv.js';
import type { NodeOS } from '../profile.js';

/** Demand of one process: CPU in nano cores, memory (working set it touches) in bytes. */
export interface DeclaredUsage {
  cpuNanoCores: number;
  memoryBytes: number;
}

const MI = 1024 * 1024;
/** An image the catalogue does not know: a small Linux service, or a Windows process with its container session. */
const OS_DEFAULT: Record<NodeOS, DeclaredUsage> = {
  linux: { cpuNanoCores: 1e6, memoryBytes: 8 * MI },
  windows: { cpuNanoCores: 2e6, memoryBytes: 40 * MI },
};

/** A quantity in its base unit (cores or bytes), or undefined when it does not parse or is negative. */
function amount(q: string | undefined): number | undefined {
  const parsed = q === undefined ? undefined : tryParseQuantity(q);
  if (!parsed || parsed.nano < 0n) return undefined;
  return Number(parsed.nano) / 1e9;
}

/**
 * Demand read off a command line: PowerShell's `1..N | Start-Job` busy loops (test/e2e/windows/cpu_limits.go runs 8),
 * stress/stress-ng workers, and shell loops that spin without sleeping.
 */
export function usageFromCommand(argv: string[]): Partial<DeclaredUsage> {
  const line = argv.join(' ');
  const out: Partial<DeclaredUsage> = {};
  const jobs = /foreach\s*\(\s*\$\w+\s+in\s+1\s*\.\.\s*(\d+)\s*\)\s*\{\s*Start-Job\b/i.exec(line);
  const stressCpu = /\bstress(?:-ng)?\b.*?(?:--cpu|-c)\s+(\d+)/.exec(line);
  if (jobs) out.cpuNanoCores = Number(jobs[1]) * 1e9;
  else if (stressCpu) out.cpuNanoCores = Math.max(1, Number(stressCpu[1])) * 1e9;
  else if (/while\s+(?:true|:)\s*;\s*do\s*(?::|true)?\s*;?\s*done|while\s*\(\s*\$true\s*\)\s*\{\s*\}|\byes\s*>\s*\/dev\/null|\b(?:md5|sha\d+)sum\s+\/dev\/zero/.test(line)) {
    out.cpuNanoCores = 1e9;
  }
  const vm = /\bstress(?:-ng)?\b.*?--vm\s+(\d+)/.exec(line);
  const vmBytes = /--vm-bytes\s+(\d+(?:\.\d+)?)([KMGT]?)B?\b/i.exec(line);
  if (vmBytes) {
    const unit = { '': 1, K: 1024, M: MI, G: 1024 * MI, T: 1024 * 1024 * MI }[vmBytes[2].toUpperCase() as '' | 'K' | 'M' | 'G' | 'T'];
    out.memoryBytes = Math.round(Number(vmBytes[1]) * unit * (vm ? Math.max(1, Number(vm[1])) : 1));
  }
  return out;
}

/** The demand of container `c` of `pod` on a node of `os`. */
export function declaredUsage(pod: Pod, c: Container, os: NodeOS): DeclaredUsage {
  const img = lookupImage(c.image ?? '');
  const idle = img?.entrypoint.usage;
  const fromImage: Partial<DeclaredUsage> = idle
    ? {
      cpuNanoCores: mul(amount(os === 'windows' ? idle.windows?.cpu ?? idle.cpu : idle.cpu), 1e9),
      memoryBytes: amount(os === 'windows' ? idle.windows?.memory ?? idle.memory : idle.memory),
    }
    : {};
  const fromCommand = usageFromCommand(processArgv(c, img ? imageConfig(img, os) : undefined));
  const declared = usageAnnotations(pod, c.name);
  const cpu = mul(amount(declared.cpu), 1e9) ?? fromCommand.cpuNanoCores ?? fromImage.cpuNanoCores ?? OS_DEFAULT[os].cpuNanoCores;
  const memory = amount(declared.memory) ?? fromCommand.memoryBytes ?? fromImage.memoryBytes ?? OS_DEFAULT[os].memoryBytes;
  return { cpuNanoCores: Math.round(cpu), memoryBytes: Math.round(memory) };
}

const mul = (v: number | undefined, k: number) => (v === undefined ? undefined : v * k);
