/** A one-line description of the machine a benchmark ran on, for the results table. */
import os from "node:os";

export interface MachineDescription {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  platform: string;
}

export function describeMachine(): MachineDescription {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  };
}

export function formatMachine(machine: MachineDescription): string {
  return `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB RAM, Node ${machine.node}, ${machine.platform}`;
}
